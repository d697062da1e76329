// Portable math: log and exp built only from IEEE-754 +, -, *, / and exact
// bit manipulation, so a seeded run gives bit-identical numbers natively and
// in WebAssembly. The C library's log/exp/pow are only promised to be close
// to the true value, and they differ in the last bit between libm versions;
// that is enough to change which request a workload generates.
//
// Accuracy is a few units in the last place, far more than sampling needs.
#pragma once

// Put at file scope in a .cc whose floating-point results must not depend on
// the compiler: forbids fusing a*b+c into one FMA instruction (which rounds
// once instead of twice) on targets that have one, e.g. ARM64.
#if defined(__clang__)
#define SSDP_STRICT_FP_FILE _Pragma("clang fp contract(off)")
#elif defined(__GNUC__)
#define SSDP_STRICT_FP_FILE _Pragma("GCC optimize(\"fp-contract=off\")")
#else
#define SSDP_STRICT_FP_FILE
#endif

namespace ssdp {

// Natural logarithm. log(0) = -inf; negative or NaN arguments give NaN.
double PortableLog(double x);

// e^x. Overflows to +inf, underflows to 0.
double PortableExp(double x);

// log(1 + x) / x, accurate near x = 0 (where it is 1). Needs x >= -1;
// x == -1 gives +inf.
double PortableLog1pOverX(double x);

// (e^x - 1) / x, accurate near x = 0 (where it is 1).
double PortableExpm1OverX(double x);

}  // namespace ssdp
