//===- Half.cpp - the machine's 16-bit floating-point format --------------===//

#include "dlc/Target/Snowflake/Half.h"

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
