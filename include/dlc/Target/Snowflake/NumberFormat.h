//===- NumberFormat.h - the machine's 16-bit operand formats ----*- C++ -*-===//
//
// How Snowflake stores a 16-bit operand (docs/Targets/Snowflake.md,
// "Number formats"): IEEE half precision, or two's-complement fixed point
// (Q8.8 is what the vendor SDK used). The compiler converts the weights
// with it, the executor the inputs and outputs, the simulator reads it to
// know what its buffers hold. A format of the machine, like the
// instruction encodings; no cost model is in it.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TARGET_SNOWFLAKE_NUMBERFORMAT_H
#define DLC_TARGET_SNOWFLAKE_NUMBERFORMAT_H

#include <cstdint>
#include <string>

namespace dlc::snowflake {

/// The float of `bits`, and the half nearest `value` (ties to even;
/// overflow to infinity; NaN stays NaN).
float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);

/// A 16-bit operand format: IEEE half precision when `fractionBits` is 0,
/// otherwise a two's-complement integer scaled by 2^-fractionBits (8:
/// Q8.8, values -128 to 127.996 in steps of 1/256).
struct OperandFormat {
  /// The largest meaningful scale: 15 fraction bits leave a sign bit.
  static constexpr unsigned kMaxFractionBits = 15;

  unsigned fractionBits = 0;

  bool isFixedPoint() const { return fractionBits != 0; }
  /// The value of `bits`.
  float decode(uint16_t bits) const;
  /// The encoding nearest `value`: for fixed point, halves round up
  /// (towards +infinity, as the write-back does), values beyond the range
  /// saturate and NaN is 0; `saturated`, when given, is set when `value`
  /// lay outside the range.
  uint16_t encode(float value, bool *saturated = nullptr) const;
  /// The least value: -infinity, or the most negative fixed-point number
  /// (what max pooling pads with).
  uint16_t getLowest() const;
  /// The least and greatest finite values.
  double getMin() const;
  double getMax() const;
  /// "fp16" or "Q8.8".
  std::string getName() const;
};

} // namespace dlc::snowflake

#endif // DLC_TARGET_SNOWFLAKE_NUMBERFORMAT_H
