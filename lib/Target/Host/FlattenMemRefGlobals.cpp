//===- FlattenMemRefGlobals.cpp - constant globals as 1-D arrays ----------===//

#include "dlc/Target/Host/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringMap.h"

#include <numeric>

namespace dlc::host {
#define GEN_PASS_DEF_FLATTENMEMREFGLOBALS
#include "dlc/Target/Host/Passes.h.inc"
} // namespace dlc::host

using namespace mlir;

namespace {

/// The initial value of a global reinterpreted with the 1-D type `type`, or
/// null for values this pass does not know how to reshape.
Attribute flattenInitialValue(Attribute value, RankedTensorType type) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return DenseResourceElementsAttr::get(type, resource.getRawHandle());
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return dense.reshape(type);
  return {};
}

struct FlattenMemRefGlobalsPass
    : dlc::host::impl::FlattenMemRefGlobalsBase<FlattenMemRefGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Original types of the globals that were flattened, by name.
    llvm::StringMap<MemRefType> flattened;
    for (auto global : module.getOps<memref::GlobalOp>()) {
      MemRefType type = global.getType();
      auto value = dyn_cast_or_null<ElementsAttr>(global.getInitialValueAttr());
      if (!value || type.getRank() < 2 || !type.hasStaticShape() ||
          !type.getLayout().isIdentity())
        continue;
      auto flatTensorType =
          RankedTensorType::get({type.getNumElements()}, type.getElementType());
      Attribute flatValue = flattenInitialValue(value, flatTensorType);
      if (!flatValue)
        continue;
      global.setType(MemRefType::get({type.getNumElements()},
                                     type.getElementType(), AffineMap(),
                                     type.getMemorySpace()));
      global.setInitialValueAttr(flatValue);
      flattened[global.getSymName()] = type;
    }
    if (flattened.empty())
      return;

    module.walk([&](memref::GetGlobalOp get) {
      auto it = flattened.find(get.getName());
      if (it == flattened.end())
        return;
      MemRefType type = it->second;
      OpBuilder builder(get);
      auto flat = memref::GetGlobalOp::create(
          builder, get.getLoc(),
          MemRefType::get({type.getNumElements()}, type.getElementType(),
                          AffineMap(), type.getMemorySpace()),
          get.getName());
      ReassociationIndices all(type.getRank());
      std::iota(all.begin(), all.end(), 0);
      Value view = memref::ExpandShapeOp::create(
          builder, get.getLoc(), get.getType(), flat,
          ArrayRef<ReassociationIndices>{all});
      get.replaceAllUsesWith(view);
      get.erase();
    });
  }
};

} // namespace
