//===- PrepareHostEntry.cpp - the host entry's ABI and signature ----------===//
//
// See the pass description in include/dlc/Target/Host/Passes.td and the
// calling convention in HostTarget.cpp.
//
//===----------------------------------------------------------------------===//

#include "dlc/Support/EntrySignature.h"
#include "dlc/Target/Host/HostTarget.h"
#include "dlc/Target/Host/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

namespace dlc {
#define GEN_PASS_DEF_PREPAREHOSTENTRY
#include "dlc/Target/Host/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

struct PrepareHostEntryPass
    : dlc::impl::PrepareHostEntryBase<PrepareHostEntryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp entry = getEntryFunction(module);
    if (!entry) {
      module.emitError("no entry function: expected @main or exactly one "
                       "function with a body");
      return signalPassFailure();
    }
    // Fails, with a diagnostic, on types the executor cannot pass.
    if (failed(getEntrySignature(entry)))
      return signalPassFailure();

    MLIRContext *context = &getContext();
    Builder builder(context);
    SmallVector<NamedAttribute> fields = {
        builder.getNamedAttr("function", entry.getSymNameAttr()),
        builder.getNamedAttr("type", TypeAttr::get(entry.getFunctionType()))};
    if (ArrayAttr argAttrs = entry.getArgAttrsAttr())
      fields.push_back(builder.getNamedAttr("arg_attrs", argAttrs));
    if (ArrayAttr resAttrs = entry.getResAttrsAttr())
      fields.push_back(builder.getNamedAttr("res_attrs", resAttrs));
    module->setAttr(kHostEntryAttr, builder.getDictionaryAttr(fields));
    // The names are recorded now; LLVM IR has no place for them and its
    // translation warns about every non-LLVM parameter attribute.
    for (unsigned i = 0, e = entry.getNumArguments(); i < e; ++i)
      entry.removeArgAttr(i, kONNXNameAttr);
    for (unsigned i = 0, e = entry.getNumResults(); i < e; ++i)
      entry.removeResultAttr(i, StringAttr::get(context, kONNXNameAttr));
    entry->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                   UnitAttr::get(context));
  }
};

} // namespace
