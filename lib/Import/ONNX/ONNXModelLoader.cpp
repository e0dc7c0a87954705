//===- ONNXModelLoader.cpp - libonnx calls that may throw -----------------===//
//
// Compiled with -fexceptions (see CMakeLists.txt): libonnx's checker, shape
// inference and parser throw. Everything is caught here.
//
//===----------------------------------------------------------------------===//

#include "ONNXModelLoader.h"

#include "onnx/checker.h"
#include "onnx/defs/parser.h"
#include "onnx/shape_inference/implementation.h"

#include <google/protobuf/io/coded_stream.h>

#include <exception>
#include <limits>
#include <string>

using namespace dlc::onnx_import;

std::string dlc::onnx_import::parseBinaryModel(const char *data, size_t size,
                                               onnx::ModelProto &model) {
  try {
    if (size > static_cast<size_t>(std::numeric_limits<int>::max()))
      return "model is larger than protobuf's 2 GB limit";
    google::protobuf::io::CodedInputStream stream(
        reinterpret_cast<const uint8_t *>(data), static_cast<int>(size));
    // Protobuf's default 64 MB limit is below the size of real models.
    stream.SetTotalBytesLimit(std::numeric_limits<int>::max());
    if (!model.ParseFromCodedStream(&stream) || !stream.ConsumedEntireMessage())
      return "not a valid binary ONNX model (truncated or corrupt protobuf)";
    if (!model.has_graph())
      return "not a valid binary ONNX model (no graph)";
    return {};
  } catch (const std::exception &e) {
    return std::string("not a valid binary ONNX model: ") + e.what();
  } catch (...) {
    return "not a valid binary ONNX model";
  }
}

/// libonnx's text parser recurses once per nested subgraph, attribute list or
/// type, so deep nesting overflows the stack. Real models nest a few levels.
static constexpr int kMaxTextNestingDepth = 256;

/// Whether the brackets ((), [], {}, <>) of ONNX text syntax nest deeper than
/// kMaxTextNestingDepth, outside string literals and '#' comments as the
/// parser reads them. The '>' of '=>' closes nothing.
static bool exceedsTextNestingDepth(const std::string &text) {
  int depth = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    switch (text[i]) {
    case '#':
      while (i < e && text[i] != '\n')
        ++i;
      break;
    case '"':
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > kMaxTextNestingDepth)
        return true;
      break;
    case '>':
      if (i > 0 && text[i - 1] == '=')
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      depth = depth > 0 ? depth - 1 : 0;
      break;
    default:
      break;
    }
  }
  return false;
}

std::string dlc::onnx_import::parseTextModel(const std::string &text,
                                             onnx::ModelProto &model) {
  if (exceedsTextNestingDepth(text))
    return "invalid ONNX text syntax: brackets nest deeper than " +
           std::to_string(kMaxTextNestingDepth) + " levels";
  try {
    onnx::OnnxParser parser(text.c_str());
    onnx::Status status = parser.Parse(model);
    if (!status.IsOK())
      return "invalid ONNX text syntax: " + status.ErrorMessage();
    if (!parser.EndOfInput())
      return "invalid ONNX text syntax: unexpected text after the graph";
    return {};
  } catch (const std::exception &e) {
    return std::string("invalid ONNX text syntax: ") + e.what();
  } catch (...) {
    return "invalid ONNX text syntax";
  }
}

std::string dlc::onnx_import::checkAndInferShapes(onnx::ModelProto &model) {
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception &e) {
    return std::string("ONNX checker: ") + e.what();
  } catch (...) {
    return "ONNX checker failed";
  }
  try {
    onnx::ShapeInferenceOptions options(/*check_type_val=*/true,
                                        /*strict_mode_val=*/1,
                                        /*data_prop_val=*/true);
    onnx::shape_inference::InferShapes(
        model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception &e) {
    return std::string("ONNX shape inference: ") + e.what();
  } catch (...) {
    return "ONNX shape inference failed";
  }
  return {};
}
