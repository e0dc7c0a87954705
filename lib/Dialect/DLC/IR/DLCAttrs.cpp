//===- DLCAttrs.cpp - dlc attributes --------------------------------------===//

#include "dlc/Dialect/DLC/IR/DLCOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace dlc;

LogicalResult HardwareAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t localMemoryBytes,
                                   int64_t localMemorySpace, int64_t banks,
                                   bool doubleBuffering,
                                   int64_t dmaBlockOverheadBytes) {
  if (localMemoryBytes < 0)
    return emitError() << "local_memory_bytes must not be negative, got "
                       << localMemoryBytes;
  if (banks < 1)
    return emitError() << "banks must be at least 1, got " << banks;
  if (localMemoryBytes % banks != 0)
    return emitError() << "local_memory_bytes (" << localMemoryBytes
                       << ") must be a multiple of banks (" << banks << ")";
  // Space 0 is global memory: local buffers must be told apart from it.
  if (localMemorySpace < 1)
    return emitError() << "local_memory_space must be at least 1, got "
                       << localMemorySpace;
  if (dmaBlockOverheadBytes < 0)
    return emitError() << "dma_block_overhead_bytes must not be negative, got "
                       << dmaBlockOverheadBytes;
  return success();
}

HardwareAttr HardwareAttr::lookup(Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    module = op->getParentOfType<ModuleOp>();
  if (!module)
    return {};
  return module->getAttrOfType<HardwareAttr>(kAttrName);
}

FailureOr<HardwareAttr>
HardwareAttr::applyOverrides(HardwareAttr base, StringRef overrides,
                             function_ref<InFlightDiagnostic()> emitError) {
  int64_t localMemoryBytes = base.getLocalMemoryBytes();
  int64_t localMemorySpace = base.getLocalMemorySpace();
  int64_t banks = base.getBanks();
  bool doubleBuffering = base.getDoubleBuffering();
  int64_t dmaBlockOverheadBytes = base.getDmaBlockOverheadBytes();

  SmallVector<StringRef> entries;
  overrides.split(entries, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef entry : entries) {
    auto [name, value] = entry.trim().split('=');
    name = name.trim();
    value = value.trim();
    if (name == "double_buffering") {
      std::optional<bool> flag;
      if (value == "true" || value == "1")
        flag = true;
      else if (value == "false" || value == "0")
        flag = false;
      if (!flag)
        return emitError() << "hardware override '" << entry
                           << "': expected true or false";
      doubleBuffering = *flag;
      continue;
    }
    int64_t *field =
        llvm::StringSwitch<int64_t *>(name)
            .Case("local_memory_bytes", &localMemoryBytes)
            .Case("local_memory_space", &localMemorySpace)
            .Case("banks", &banks)
            .Case("dma_block_overhead_bytes", &dmaBlockOverheadBytes)
            .Default(nullptr);
    if (!field)
      return emitError() << "hardware override '" << entry
                         << "': unknown parameter '" << name
                         << "' (known: local_memory_bytes, "
                            "local_memory_space, banks, double_buffering, "
                            "dma_block_overhead_bytes)";
    // Sizes may be written with a K or M suffix (KiB, MiB).
    int64_t scale = 1;
    if (value.consume_back_insensitive("k"))
      scale = 1024;
    else if (value.consume_back_insensitive("m"))
      scale = 1024 * 1024;
    int64_t number;
    if (value.getAsInteger(10, number) || number > INT32_MAX ||
        number < INT32_MIN)
      return emitError() << "hardware override '" << entry
                         << "': expected an integer";
    *field = number * scale;
  }
  if (failed(verify(emitError, localMemoryBytes, localMemorySpace, banks,
                    doubleBuffering, dmaBlockOverheadBytes)))
    return failure();
  return HardwareAttr::get(base.getContext(), localMemoryBytes,
                           localMemorySpace, banks, doubleBuffering,
                           dmaBlockOverheadBytes);
}
