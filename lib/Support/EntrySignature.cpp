//===- EntrySignature.cpp - inputs and outputs of a model's entry ---------===//

#include "dlc/Support/EntrySignature.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/Support/MathExtras.h"

#include <unistd.h>

using namespace dlc;
using namespace mlir;

uint64_t dlc::getPhysicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0)
    return UINT64_MAX;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
}

LogicalResult dlc::checkFitsInMemory(Location loc, const llvm::Twine &what,
                                     ShapedType type) {
  if (!type.hasStaticShape())
    return success();
  Type elementType = type.getElementType();
  uint64_t elementBytes;
  if (elementType.isIntOrFloat())
    elementBytes = (elementType.getIntOrFloatBitWidth() + 7) / 8;
  else if (elementType.isIndex())
    elementBytes = 8;
  else
    return success();
  // Saturates at UINT64_MAX: a wrapped-around count would look small.
  bool overflowed = false;
  uint64_t numBytes = elementBytes;
  for (int64_t dim : type.getShape())
    numBytes = llvm::SaturatingMultiply(numBytes, static_cast<uint64_t>(dim),
                                        &overflowed);
  uint64_t memoryBytes = getPhysicalMemoryBytes();
  if (!overflowed && numBytes <= memoryBytes)
    return success();
  InFlightDiagnostic diag = emitError(loc)
                            << what << " of type " << type << " needs ";
  if (overflowed)
    diag << "2^64 or more";
  else
    diag << numBytes;
  return diag << " bytes, more than the " << memoryBytes
              << " bytes of this machine's memory";
}

func::FuncOp dlc::getEntryFunction(ModuleOp module) {
  // A declaration has no body to run: it is never the entry.
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (main && !main.isExternal())
    return main;
  func::FuncOp only;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    if (only)
      return nullptr;
    only = func;
  }
  return only;
}

/// Fills `spec` from argument or result `index`; `role` is "input" or
/// "output". Unnamed ones are called "input_0", ... like ONNX's test files.
static LogicalResult getTensorSpec(Location loc, Type type,
                                   DictionaryAttr attrs, llvm::StringRef role,
                                   unsigned index, TensorSpec &spec) {
  std::string what = (role + " " + llvm::Twine(index)).str();
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType || !tensorType.hasStaticShape())
    return emitError(loc) << what << " has type " << type
                          << "; only statically shaped tensors can be passed";
  std::optional<ElementKind> kind =
      getElementKindFromType(tensorType.getElementType());
  if (!kind)
    return emitError(loc) << what << " has unsupported element type "
                          << tensorType.getElementType();
  spec.kind = *kind;
  spec.shape.assign(tensorType.getShape().begin(), tensorType.getShape().end());
  // The caller allocates every input and output in host memory.
  if (failed(checkFitsInMemory(loc, what, tensorType)))
    return failure();
  if (attrs)
    if (auto name = attrs.getAs<StringAttr>(kONNXNameAttr))
      spec.name = name.str();
  if (spec.name.empty())
    spec.name = (role + "_" + llvm::Twine(index)).str();
  return success();
}

static DictionaryAttr getAttrsAt(ArrayAttr attrs, unsigned index) {
  if (!attrs || index >= attrs.size())
    return nullptr;
  return dyn_cast<DictionaryAttr>(attrs[index]);
}

FailureOr<EntrySignature>
dlc::getEntrySignature(Location loc, StringRef functionName, FunctionType type,
                       ArrayAttr argAttrs, ArrayAttr resultAttrs) {
  EntrySignature signature;
  signature.functionName = functionName.str();
  for (auto [index, input] : llvm::enumerate(type.getInputs())) {
    TensorSpec &spec = signature.inputs.emplace_back();
    if (failed(getTensorSpec(loc, input, getAttrsAt(argAttrs, index), "input",
                             index, spec)))
      return failure();
  }
  for (auto [index, result] : llvm::enumerate(type.getResults())) {
    TensorSpec &spec = signature.outputs.emplace_back();
    if (failed(getTensorSpec(loc, result, getAttrsAt(resultAttrs, index),
                             "output", index, spec)))
      return failure();
  }
  return signature;
}

FailureOr<EntrySignature> dlc::getEntrySignature(func::FuncOp func) {
  return getEntrySignature(func.getLoc(), func.getSymName(),
                           func.getFunctionType(), func.getArgAttrsAttr(),
                           func.getResAttrsAttr());
}

FailureOr<EntrySignature> dlc::getRecordedEntrySignature(ModuleOp module) {
  auto entry = module->getAttrOfType<DictionaryAttr>(kEntryAttr);
  auto function = entry ? entry.getAs<StringAttr>("function") : nullptr;
  auto type = entry ? entry.getAs<TypeAttr>("type") : nullptr;
  if (!function || !type || !isa<FunctionType>(type.getValue()))
    return module.emitError()
           << "the module has no valid '" << kEntryAttr
           << "' attribute: it did not go through a target pipeline";
  return getEntrySignature(
      module.getLoc(), function.getValue(), cast<FunctionType>(type.getValue()),
      entry.getAs<ArrayAttr>("arg_attrs"), entry.getAs<ArrayAttr>("res_attrs"));
}

llvm::Error
dlc::EntrySignature::checkInputs(llvm::ArrayRef<Tensor> args) const {
  if (args.size() != inputs.size())
    return llvm::createStringError("the model takes %zu inputs, %zu were given",
                                   inputs.size(), args.size());
  for (auto [input, spec] : llvm::zip_equal(args, inputs))
    if (!spec.accepts(input.kind, input.shape))
      return llvm::createStringError(
          "input '%s' must be %s, got %s", spec.name.c_str(),
          spec.getTypeString().c_str(), input.getTypeString().c_str());
  return llvm::Error::success();
}
