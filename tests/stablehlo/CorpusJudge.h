//===- CorpusJudge.h - Judging a StableHLO corpus result --------*- C++ -*-===//
//
// The rules of ../shared/corpora/stablehlo/README.md ("How a result is
// judged"), as scripts/stablehlo-corpus.py applies them, on arrays of any
// .npy type (support/Npy.h's NpyArray), so that a result of a type Torus has
// no DType for yet, or an expected value of one, still compares:
//
// - integers and booleans: exact. Two integer arrays of the same width
//   compare by bits (an unsigned result Torus holds as signless equals its
//   expected value); otherwise by value.
// - f16, bf16 (`<V2`), or a result whose check names f16/bf16 (a bf16
//   result widened to f32): |got - want| <= 1e-2 * |want| + 1e-2.
// - other floats: `expect_eq` |got - want| <= 1e-5 * |want| + 1e-6;
//   `expect_almost_eq` |got - want| <= 1e-3; `expect_close` within 3 ULPs
//   of the expected value in the result's type; `allclose` (the JAX
//   corpus, tests/jax) |got - want| <= atol + rtol * |want| with the
//   check's own tolerance, for narrow floats too.
// - non-finite values match exactly; any NaN matches NaN.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_TESTS_STABLEHLO_CORPUSJUDGE_H
#define TORUS_TESTS_STABLEHLO_CORPUSJUDGE_H

#include "support/Npy.h"

#include <optional>
#include <string>

namespace torus::stablehlo {

/// The check a corpus program's NAME.json names for one result.
struct Check {
  /// `expect_eq`, `expect_close`, `expect_almost_eq` or `allclose`.
  std::string kind = "expect_eq";
  /// The check's result types name f16 or bf16: a narrow float, maybe
  /// widened to f32 inside the program.
  bool narrow = false;
  /// The tolerance of `allclose`: |got - want| <= atol + rtol * |want|.
  double rtol = 0, atol = 0;
};

/// nullopt when `got` passes against `want`; else why not, e.g.
/// "max abs error 0.5 at index [1,2] (got 1.5, expected 1)".
std::optional<std::string> judge(const NpyArray &got, const NpyArray &want,
                                 const Check &check);

} // namespace torus::stablehlo

#endif // TORUS_TESTS_STABLEHLO_CORPUSJUDGE_H
