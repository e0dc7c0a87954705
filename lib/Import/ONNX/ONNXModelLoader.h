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
std::string checkAndInferShapes(onnx::ModelProto &model);

} // namespace onnx_import
} // namespace dlc

#endif // DLC_LIB_IMPORT_ONNX_ONNXMODELLOADER_H
