//===- AttachHardware.cpp - the module's hardware description -------------===//

#include "dlc/Dialect/DLC/IR/DLCOps.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/BuiltinOps.h"

namespace dlc {
#define GEN_PASS_DEF_ATTACHHARDWARE
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {
struct AttachHardwarePass
    : public dlc::impl::AttachHardwareBase<AttachHardwarePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto emitError = [&] { return module.emitError(); };
    HardwareAttr base = HardwareAttr::lookup(module);
    if (!base) {
      Attribute parsed = parseAttribute(hardware, &getContext());
      base = dyn_cast_or_null<HardwareAttr>(parsed);
      if (!base) {
        emitError() << "'" << hardware
                    << "' is not a #dlc.hardware description";
        return signalPassFailure();
      }
    }
    FailureOr<HardwareAttr> described =
        HardwareAttr::applyOverrides(base, overrides, emitError);
    if (failed(described))
      return signalPassFailure();
    module->setAttr(HardwareAttr::kAttrName, *described);
  }
};
} // namespace
