//===- SnowflakeHardware.cpp - the Snowflake target's parameters ----------===//

#include "dlc/Target/Snowflake/SnowflakeHardware.h"

#include "dlc/Target/Snowflake/ISA.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace dlc;
using namespace dlc::snowflake;

SnowflakeHardware SnowflakeHardware::get(HardwareAttr hardware) {
  SnowflakeHardware hw;
  if (!hardware)
    return hw;
#define SNOWFLAKE_READ(member, type, name, value)                              \
  hardware.readTarget(name, hw.member);
  SNOWFLAKE_PARAMETERS(SNOWFLAKE_READ)
#undef SNOWFLAKE_READ
  return hw;
}

SnowflakeHardware SnowflakeHardware::get(Operation *op) {
  return get(HardwareAttr::lookup(op));
}

DictionaryAttr
SnowflakeHardware::toTargetDictionary(MLIRContext *context) const {
  Builder b(context);
  SmallVector<NamedAttribute> entries;
#define SNOWFLAKE_WRITE(member, type, name, value)                             \
  entries.push_back(                                                           \
      b.getNamedAttr(name, HardwareAttr::getTargetValue(context, member)));
  SNOWFLAKE_PARAMETERS(SNOWFLAKE_WRITE)
#undef SNOWFLAKE_WRITE
  return b.getDictionaryAttr(entries);
}

int64_t SnowflakeHardware::getMACsPerCycle() {
  return kComputeUnits * kVMACsPerUnit * kLanes;
}

LogicalResult
SnowflakeHardware::verify(function_ref<InFlightDiagnostic()> emitError) const {
  if (!(clockHz > 0) || !(dramBytesPerSecond > 0))
    return emitError() << "snowflake: clock_hz and dram_bytes_per_second "
                          "must be positive";
  if (portBytesPerCycle < 2 || portBytesPerCycle % 2)
    return emitError() << "snowflake: port_bytes_per_cycle must be a "
                          "positive even number, got "
                       << portBytesPerCycle;
  // Register values are 32-bit: every address must fit one.
  constexpr int64_t kMaxAddress = int64_t(1) << 31;
  if (mapsBufferElements < 4096 || mapsBufferElements > kMaxAddress)
    return emitError() << "snowflake: maps_buffer_elements must be at least "
                          "4096, got "
                       << mapsBufferElements;
  if (weightsBufferElements < 1024 || weightsBufferElements % kLanes ||
      weightsBufferElements > kMaxAddress)
    return emitError() << "snowflake: weights_buffer_elements must be a "
                          "multiple of 16 and at least 1024, got "
                       << weightsBufferElements;
  if (dramElements < 65536 || dramElements > kMaxAddress)
    return emitError() << "snowflake: dram_elements must be between 65536 "
                          "and 2^31, got "
                       << dramElements;
  if (dramLatencyCycles < 0 || branchPenaltyCycles < 0 || unitQueueDepth < 1)
    return emitError() << "snowflake: latencies must be non-negative and "
                          "unit_queue_depth positive";
  if (operandFractionBits < 0 ||
      operandFractionBits > OperandFormat::kMaxFractionBits)
    return emitError() << "snowflake: operand_fraction_bits must be 0 (fp16) "
                          "or 1.."
                       << OperandFormat::kMaxFractionBits
                       << " (fixed point; 8 is Q8.8), got "
                       << operandFractionBits;
  return success();
}
