#include "util/portable_math.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

SSDP_STRICT_FP_FILE

namespace ssdp {
namespace {

// ln 2 split so that k * kLn2Hi is exact for every exponent k a double can
// have (kLn2Hi has 21 trailing zero bits); kLn2Lo carries the rest.
constexpr double kLn2Hi = 0x1.62e42fee00000p-1;
constexpr double kLn2Lo = 0x1.a39ef35793c76p-33;
constexpr double kInvLn2 = 0x1.71547652b82fep+0;
constexpr double kSqrt2 = 0x1.6a09e667f3bcdp+0;
constexpr uint64_t kMantissaMask = (uint64_t(1) << 52) - 1;

// Bit reinterpretation (std::bit_cast is missing from the WebAssembly
// toolchain's standard library).
uint64_t BitsOf(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}
double DoubleOf(uint64_t bits) {
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// Polynomials are evaluated with Estrin's scheme: independent pairs first,
// then combined with z^2, z^4, z^8, so the dependency chain is short and the
// CPU overlaps the multiplies (plain Horner is twice as slow here).

// sum_{j=0..10} z^j / (2j + 1): atanh(s) / s with z = s^2. Used for
// |s| <= 3 - 2*sqrt(2) ~ 0.1716, where z <= 0.0295 and the first omitted term
// is below 1e-18.
double AtanhOverS(double z) {
  const double z2 = z * z;
  const double z4 = z2 * z2;
  const double z8 = z4 * z4;
  const double p01 = 1.0 + z * (1.0 / 3);
  const double p23 = 1.0 / 5 + z * (1.0 / 7);
  const double p45 = 1.0 / 9 + z * (1.0 / 11);
  const double p67 = 1.0 / 13 + z * (1.0 / 15);
  const double p89 = 1.0 / 17 + z * (1.0 / 19);
  const double q0 = p01 + z2 * p23;
  const double q1 = p45 + z2 * p67;
  const double q2 = p89 + z2 * (1.0 / 21);
  return (q0 + z4 * q1) + z8 * q2;
}

// 1/k! for k = 0..14.
constexpr double InverseFactorial(int k) {
  double value = 1.0;
  for (int i = 2; i <= k; ++i) value /= i;
  return value;
}

// sum_{k=0..13} r^k * c[k + shift] with c[k] = 1/k!. shift 0 gives e^r,
// shift 1 gives (e^r - 1) / r. Used for |r| <= ~0.35, where the first
// omitted term is below 1e-17.
template <int kShift>
double ExpSeries(double r) {
  constexpr double c0 = InverseFactorial(0 + kShift), c1 = InverseFactorial(1 + kShift);
  constexpr double c2 = InverseFactorial(2 + kShift), c3 = InverseFactorial(3 + kShift);
  constexpr double c4 = InverseFactorial(4 + kShift), c5 = InverseFactorial(5 + kShift);
  constexpr double c6 = InverseFactorial(6 + kShift), c7 = InverseFactorial(7 + kShift);
  constexpr double c8 = InverseFactorial(8 + kShift), c9 = InverseFactorial(9 + kShift);
  constexpr double c10 = InverseFactorial(10 + kShift), c11 = InverseFactorial(11 + kShift);
  constexpr double c12 = InverseFactorial(12 + kShift), c13 = InverseFactorial(13 + kShift);
  const double r2 = r * r;
  const double r4 = r2 * r2;
  const double r8 = r4 * r4;
  const double q0 = (c0 + r * c1) + r2 * (c2 + r * c3);
  const double q1 = (c4 + r * c5) + r2 * (c6 + r * c7);
  const double q2 = (c8 + r * c9) + r2 * (c10 + r * c11);
  const double q3 = c12 + r * c13;
  return (q0 + r4 * q1) + r8 * (q2 + r4 * q3);
}

// value * 2^k for value in [0.5, 2] and |k| <= 1100, rounding once.
double ScaleByPowerOfTwo(double value, int k) {
  if (k > 1000) {
    value *= 0x1p1000;
    k -= 1000;
  } else if (k < -1000) {
    value *= 0x1p-1000;
    k += 1000;
  }
  return value * DoubleOf(uint64_t(k + 1023) << 52);
}

}  // namespace

double PortableLog(double x) {
  if (!(x > 0)) return x == 0 ? -std::numeric_limits<double>::infinity()
                              : std::numeric_limits<double>::quiet_NaN();
  if (x == std::numeric_limits<double>::infinity()) return x;
  int exponent_bias = 1023;
  uint64_t bits = BitsOf(x);
  if ((bits >> 52) == 0) {  // subnormal: normalise first
    bits = BitsOf(x * 0x1p54);
    exponent_bias += 54;
  }
  int exponent = int(bits >> 52) - exponent_bias;
  double mantissa = DoubleOf((bits & kMantissaMask) | (uint64_t(1023) << 52));
  if (mantissa > kSqrt2) {  // keep the mantissa in [sqrt(1/2), sqrt(2)]
    mantissa *= 0.5;
    ++exponent;
  }
  // log(m) = 2 atanh(s) with s = (m - 1) / (m + 1), |s| <= 0.1716.
  const double f = mantissa - 1.0;
  const double s = f / (2.0 + f);
  const double log_mantissa = 2.0 * s * AtanhOverS(s * s);
  const double e = exponent;
  return e * kLn2Hi + (log_mantissa + e * kLn2Lo);
}

double PortableExp(double x) {
  if (x != x) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();
  if (x < -745.1332191019412) return 0.0;
  // e^x = 2^k * e^r with |r| <= ln(2) / 2.
  const double k = std::floor(x * kInvLn2 + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  return ScaleByPowerOfTwo(ExpSeries<0>(r), int(k));
}

double PortableLog1pOverX(double x) {
  if (x >= -0.29 && x <= 0.41) {
    // log(1 + x) = 2 atanh(s) with s = x / (2 + x); no cancellation near 0.
    const double s = x / (2.0 + x);
    return 2.0 / (2.0 + x) * AtanhOverS(s * s);
  }
  return PortableLog(1.0 + x) / x;
}

double PortableExpm1OverX(double x) {
  if (x >= -0.35 && x <= 0.35) return ExpSeries<1>(x);
  return (PortableExp(x) - 1.0) / x;
}

}  // namespace ssdp
