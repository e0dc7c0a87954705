//===- NodeLocation.cpp - ONNX nodes in MLIR locations --------------------===//

#include "dlc/Dialect/DLC/IR/NodeLocation.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace dlc;

Location dlc::getLocation(MLIRContext *context, const ONNXNodeLocation &node) {
  Builder b(context);
  DictionaryAttr opset = b.getDictionaryAttr(
      {b.getNamedAttr("domain", b.getStringAttr(node.domain)),
       b.getNamedAttr("opset", b.getI64IntegerAttr(node.opset))});
  Location model = FusedLoc::get(
      context, {FileLineColLoc::get(context, node.model, 0, 0)}, opset);
  return NameLoc::get(b.getStringAttr(node.name),
                      NameLoc::get(b.getStringAttr(node.opType), model));
}

/// The node's part of `loc` if it has the importer's form.
static std::optional<ONNXNodeLocation> matchNodeLocation(NameLoc nameLoc) {
  auto opType = dyn_cast<NameLoc>(nameLoc.getChildLoc());
  auto fused = opType ? dyn_cast<FusedLoc>(opType.getChildLoc()) : FusedLoc();
  auto opset =
      fused ? dyn_cast_or_null<DictionaryAttr>(fused.getMetadata()) : nullptr;
  if (!opset || fused.getLocations().size() != 1)
    return std::nullopt;
  auto model = dyn_cast<FileLineColLoc>(fused.getLocations().front());
  auto domain = opset.getAs<StringAttr>("domain");
  auto version = opset.getAs<IntegerAttr>("opset");
  if (!model || !domain || !version)
    return std::nullopt;
  return ONNXNodeLocation{model.getFilename().str(), nameLoc.getName().str(),
                          opType.getName().str(), domain.str(),
                          version.getInt()};
}

std::optional<ONNXNodeLocation> dlc::findONNXNodeLocation(Location loc) {
  std::optional<ONNXNodeLocation> found;
  loc->walk([&](Location nested) {
    if (auto nameLoc = dyn_cast<NameLoc>(nested))
      found = matchNodeLocation(nameLoc);
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

std::string dlc::getNodeName(Operation *op) {
  return getNodeNameOrPosition(op->getLoc());
}

std::string dlc::getNodeNameOrPosition(Location loc) {
  std::string name = getNodeName(loc);
  if (!name.empty())
    return name;
  llvm::raw_string_ostream os(name);
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    loc.print(os);
  return name;
}

std::string dlc::getNodeName(Location loc) {
  std::string name;
  loc->walk([&](Location nested) {
    if (auto nameLoc = dyn_cast<NameLoc>(nested)) {
      name = nameLoc.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return name;
}

std::string dlc::getNodeOpType(Location loc) {
  std::string opType;
  loc->walk([&](Location nested) {
    if (auto nameLoc = dyn_cast<NameLoc>(nested)) {
      if (auto child = dyn_cast<NameLoc>(nameLoc.getChildLoc()))
        opType = child.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return opType;
}

static StringRef getSeverityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Note:
    return "note";
  case DiagnosticSeverity::Remark:
    return "remark";
  }
  llvm_unreachable("unknown diagnostic severity");
}

/// The prefix this handler prints for `loc`, or empty if it does not own
/// the location (then MLIR's handler prints it). Line 0 is the importer's
/// mark for the model as a whole (and its named inputs and initializers).
static std::string getPrefix(Location loc) {
  std::string prefix;
  llvm::raw_string_ostream os(prefix);
  if (std::optional<ONNXNodeLocation> node = findONNXNodeLocation(loc))
    os << node->model << ": node '" << node->name << "' (" << node->opType
       << ", " << node->domain << " opset " << node->opset << "): ";
  else if (auto file = loc->findInstanceOf<FileLineColLoc>();
           file && file.getLine() == 0 && file.getColumn() == 0)
    os << file.getFilename().getValue() << ": ";
  return prefix;
}

DiagnosticEngine::HandlerTy
dlc::makeONNXNodeDiagnosticHandler(llvm::raw_ostream &os) {
  return [&os](Diagnostic &diag) -> LogicalResult {
    std::string prefix = getPrefix(diag.getLocation());
    if (prefix.empty())
      return failure();
    os << prefix << getSeverityName(diag.getSeverity()) << ": " << diag << "\n";
    for (Diagnostic &note : diag.getNotes()) {
      std::string notePrefix = getPrefix(note.getLocation());
      if (notePrefix.empty() && isa<FileLineColLoc>(note.getLocation()))
        notePrefix = getNodeNameOrPosition(note.getLocation()) + ": ";
      os << notePrefix << "note: " << note << "\n";
    }
    os.flush();
    return success();
  };
}
