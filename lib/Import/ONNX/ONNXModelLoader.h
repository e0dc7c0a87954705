//===- ONNXModelLoader.h - libonnx calls that may throw ---------*- C++ -*-===//
//
// libonnx reports errors with C++ exceptions while dlc is built with
// -fno-exceptions. Every libonnx call that may throw lives behind this
// interface, in the one translation unit compiled with -fexceptions; errors
// come back as messages. The header includes neither LLVM nor MLIR so that
// TU does not depend on their (RTTI-less) classes.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_LIB_IMPORT_ONNX_ONNXMODELLOADER_H
#define DLC_LIB_IMPORT_ONNX_ONNXMODELLOADER_H

#include "onnx/onnx_pb.h"

#include <cstddef>
#include <string>

namespace dlc {
namespace onnx_import {

/// Parses a binary ModelProto. Returns an empty string on success, else the
/// reason the bytes are not a model.
std::string parseBinaryModel(const char *data, size_t size,
                             onnx::ModelProto &model);

/// Parses ONNX's text syntax (onnx/defs/parser.h). Returns an empty string on
/// success, else the parser's message.
std::string parseTextModel(const std::string &text, onnx::ModelProto &model);

/// Runs onnx::checker::check_model and then strict shape inference (with
/// data propagation), which adds value_info entries to the graph. Returns an
/// empty string on success, else the message of whichever step failed.
///
/// libonnx 1.12 indexes unchecked attributes and ranks in some inference
/// functions (a crash) and loops on others (a hang), so both first run in a
/// forked child with a timeout. When the child crashes, `failingNode` is the
/// index of the first top-level node whose inference crashes (else -1).
std::string checkAndInferShapes(onnx::ModelProto &model, int &failingNode);

} // namespace onnx_import
} // namespace dlc

#endif // DLC_LIB_IMPORT_ONNX_ONNXMODELLOADER_H
