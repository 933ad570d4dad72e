//===- SupportRoutines.h - What generated code may call besides the ABI -*- C++ -*-===//
//
// LLVM turns some operations into calls ("libcalls") that a C compiler's
// runtime or libm would satisfy: f32 -> bf16 conversion without AVX-512
// BF16 (`__truncsfbf2`), f16 arithmetic without F16C (`__extendhfsf2`),
// transcendental functions (`expf`), `frem` (`fmodf`), large copies
// (`memcpy`). Generated code calls nothing else: the JIT resolves its
// symbols from runtimeAbiSymbols() and this table only, never from the
// process, so a routine missing here is an error naming it at load time on
// every host, not a crash on some.
//
// Every routine follows Torus's floating-point semantics, XLA:CPU's:
// subnormal inputs and results are flushed to signed zero
// (docs/codegen.md, "Subnormals"). The executor runs generated code with
// the CPU's FTZ and DAZ modes on (FloatMode.h); libm's functions compute
// with integer tricks that ignore those modes, so the wrappers here flush
// their arguments and results themselves.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_SUPPORTROUTINES_H
#define TORUS_RUNTIME_SUPPORTROUTINES_H

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace torus::rt {

/// Name/address pairs of every support routine, under the names LLVM
/// calls them by, for a JIT's symbol table.
const std::vector<std::pair<std::string_view, void *>> &
supportRoutineSymbols();

/// The conversions, for tests and host code: IEEE round to nearest even,
/// NaN stays NaN (quiet), subnormal f32/f64 inputs become signed zero.
uint16_t floatToBf16(float x);
uint16_t doubleToBf16(double x);
uint16_t floatToHalf(float x);
uint16_t doubleToHalf(double x);
float halfToFloat(uint16_t h);

} // namespace torus::rt

#endif // TORUS_RUNTIME_SUPPORTROUTINES_H
