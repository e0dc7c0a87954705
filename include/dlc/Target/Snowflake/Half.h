//===- Half.h - the machine's 16-bit floating-point format ------*- C++ -*-===//
//
// IEEE half precision as Snowflake stores it (docs/Targets/Snowflake.md):
// the compiler converts the weights with it, the executor the inputs and
// outputs, the simulator its results. A format of the machine, like the
// instruction encodings; no cost model is in it.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TARGET_SNOWFLAKE_HALF_H
#define DLC_TARGET_SNOWFLAKE_HALF_H

#include <cstdint>

namespace dlc::snowflake {

/// The float of `bits`, and the half nearest `value` (ties to even;
/// overflow to infinity; NaN stays NaN).
float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);

} // namespace dlc::snowflake

#endif // DLC_TARGET_SNOWFLAKE_HALF_H
