//===- NumberFormat.cpp - the machine's 16-bit operand formats ------------===//

#include "dlc/Target/Snowflake/NumberFormat.h"

#include <cmath>
#include <cstring>

using namespace dlc;

float dlc::snowflake::halfToFloat(uint16_t bits) {
  uint32_t sign = uint32_t(bits >> 15) << 31;
  uint32_t exponent = (bits >> 10) & 0x1f;
  uint32_t mantissa = bits & 0x3ff;
  uint32_t result;
  if (exponent == 0x1f) {
    result = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    result = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    result = sign;
  } else {
    // Subnormal: normalise.
    int shift = 0;
    while (!(mantissa & 0x400)) {
      mantissa <<= 1;
      ++shift;
    }
    result = sign | ((113 - shift) << 23) | ((mantissa & 0x3ff) << 13);
  }
  float value;
  std::memcpy(&value, &result, 4);
  return value;
}

uint16_t dlc::snowflake::floatToHalf(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint16_t sign = (bits >> 16) & 0x8000;
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) // NaN: keep it quiet and non-zero.
    return sign | 0x7e00 | ((magnitude >> 13) & 0x3ff);
  if (magnitude >= 0x477ff000u) // Rounds to or past 65520: infinity.
    return sign | 0x7c00;
  if (magnitude < 0x38800000u) {
    // Below the smallest normal half: a subnormal (or zero), rounded to
    // nearest even on the 2^-24 grid.
    if (magnitude < 0x33000000u)
      return sign;
    uint32_t exponent = magnitude >> 23;
    uint32_t mantissa = (magnitude & 0x7fffff) | 0x800000;
    uint32_t shift = 126 - exponent; // 14..24 bits fall off
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t midpoint = 1u << (shift - 1);
    if (rest > midpoint || (rest == midpoint && (half & 1)))
      ++half;
    return sign | half;
  }
  uint32_t rounded = magnitude - 0x38000000u; // rebias 127 -> 15
  uint32_t half = rounded >> 13;
  uint32_t rest = rounded & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return sign | half;
}

float dlc::snowflake::OperandFormat::decode(uint16_t bits) const {
  if (!isFixedPoint())
    return halfToFloat(bits);
  return std::ldexp(static_cast<float>(static_cast<int16_t>(bits)),
                    -static_cast<int>(fractionBits));
}

uint16_t dlc::snowflake::OperandFormat::encode(float value,
                                               bool *saturated) const {
  if (saturated)
    *saturated = false;
  if (!isFixedPoint())
    return floatToHalf(value);
  if (std::isnan(value))
    return 0;
  double scaled = std::floor(
      std::ldexp(static_cast<double>(value), static_cast<int>(fractionBits)) +
      0.5);
  if (scaled < -32768.0 || scaled > 32767.0) {
    if (saturated)
      *saturated = true;
    scaled = scaled < 0 ? -32768.0 : 32767.0;
  }
  return static_cast<uint16_t>(static_cast<int16_t>(scaled));
}

uint16_t dlc::snowflake::OperandFormat::getLowest() const {
  return isFixedPoint() ? 0x8000 : 0xfc00;
}

double dlc::snowflake::OperandFormat::getMin() const {
  return isFixedPoint() ? std::ldexp(-32768.0, -static_cast<int>(fractionBits))
                        : -65504.0;
}

double dlc::snowflake::OperandFormat::getMax() const {
  return isFixedPoint() ? std::ldexp(32767.0, -static_cast<int>(fractionBits))
                        : 65504.0;
}

std::string dlc::snowflake::OperandFormat::getName() const {
  if (!isFixedPoint())
    return "fp16";
  return "Q" + std::to_string(16 - fractionBits) + "." +
         std::to_string(fractionBits);
}
