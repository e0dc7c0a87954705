//===- RecordEntrySignature.cpp - the entry's tensor signature ------------===//
//
// See the pass description in include/dlc/Transforms/Passes.td.
//
//===----------------------------------------------------------------------===//

#include "dlc/Support/EntrySignature.h"
#include "dlc/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace dlc {
#define GEN_PASS_DEF_RECORDENTRYSIGNATURE
#include "dlc/Transforms/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {

struct RecordEntrySignaturePass
    : dlc::impl::RecordEntrySignatureBase<RecordEntrySignaturePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    func::FuncOp entry = getEntryFunction(module);
    if (!entry) {
      module.emitError("no entry function: expected @main or exactly one "
                       "function with a body");
      return signalPassFailure();
    }
    // Fails, with a diagnostic, on types no executor can pass.
    if (failed(getEntrySignature(entry)))
      return signalPassFailure();

    Builder builder(&getContext());
    SmallVector<NamedAttribute> fields = {
        builder.getNamedAttr("function", entry.getSymNameAttr()),
        builder.getNamedAttr("type", TypeAttr::get(entry.getFunctionType()))};
    if (ArrayAttr argAttrs = entry.getArgAttrsAttr())
      fields.push_back(builder.getNamedAttr("arg_attrs", argAttrs));
    if (ArrayAttr resAttrs = entry.getResAttrsAttr())
      fields.push_back(builder.getNamedAttr("res_attrs", resAttrs));
    module->setAttr(kEntryAttr, builder.getDictionaryAttr(fields));
    for (unsigned i = 0, e = entry.getNumArguments(); i < e; ++i)
      entry.removeArgAttr(i, kONNXNameAttr);
    for (unsigned i = 0, e = entry.getNumResults(); i < e; ++i)
      entry.removeResultAttr(i, StringAttr::get(&getContext(), kONNXNameAttr));
  }
};

} // namespace
