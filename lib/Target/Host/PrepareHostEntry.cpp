//===- PrepareHostEntry.cpp - the host entry's ABI and signature ----------===//
//
// See the pass description in include/dlc/Target/Host/Passes.td and the
// calling convention in HostTarget.cpp.
//
//===----------------------------------------------------------------------===//

#include "dlc/Support/EntrySignature.h"
#include "dlc/Target/Host/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace dlc::host {
#define GEN_PASS_DEF_PREPAREHOSTENTRY
#include "dlc/Target/Host/Passes.h.inc"
} // namespace dlc::host

using namespace mlir;
using namespace dlc;

namespace {

struct PrepareHostEntryPass
    : dlc::host::impl::PrepareHostEntryBase<PrepareHostEntryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp entry = getEntryFunction(module);
    if (!entry) {
      module.emitError("no entry function: expected @main or exactly one "
                       "function with a body");
      return signalPassFailure();
    }
    entry->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                   UnitAttr::get(&getContext()));
  }
};

} // namespace
