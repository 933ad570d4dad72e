//===- ChloOps.td - The chlo dialect ------------------------*- tablegen -*-===//
//
// CHLO ("client HLO", spec: chlo.md): the ops JAX emits next to StableHLO
// for functions StableHLO has no op for (lgamma, erf_inv, top_k, ...). Only
// the ones Torus reads, with the text forms CHLO's printer writes.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_CHLO_OPS_TD
#define TORUS_CHLO_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def CHLO_Dialect : Dialect {
  let name = "chlo";
  let cppNamespace = "::mlir::chlo";
  let summary = "CHLO, as far as Torus reads it";
  let description = [{
    Elementwise special functions and `top_k`; ir/stablehlo/ConvertToTorus
    maps those with a torus equivalent and names the others in an error.
  }];
}

class CHLO_Op<string mnemonic, list<Trait> traits = []>
    : Op<CHLO_Dialect, mnemonic, traits>;

// `%r = chlo.lgamma %x : tensor<4xf32> -> tensor<4xf32>`.
class CHLO_UnaryOp<string mnemonic, string what> : CHLO_Op<mnemonic, [Pure]> {
  let summary = what;
  let description = "chlo.md: `" # mnemonic # "`, elementwise " # what # ".";
  let arguments = (ins AnyRankedTensor:$operand);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:` type($operand) `->` type($result)
  }];
}

def CHLO_AcosOp : CHLO_UnaryOp<"acos", "arccosine">;
def CHLO_AcoshOp : CHLO_UnaryOp<"acosh", "inverse hyperbolic cosine">;
def CHLO_AsinOp : CHLO_UnaryOp<"asin", "arcsine">;
def CHLO_AsinhOp : CHLO_UnaryOp<"asinh", "inverse hyperbolic sine">;
def CHLO_AtanOp : CHLO_UnaryOp<"atan", "arctangent">;
def CHLO_AtanhOp : CHLO_UnaryOp<"atanh", "inverse hyperbolic tangent">;
def CHLO_BesselI1eOp : CHLO_UnaryOp<"bessel_i1e",
    "exponentially scaled modified Bessel function of order 1">;
def CHLO_ConjOp : CHLO_UnaryOp<"conj", "complex conjugate">;
def CHLO_CoshOp : CHLO_UnaryOp<"cosh", "hyperbolic cosine">;
def CHLO_DigammaOp : CHLO_UnaryOp<"digamma", "digamma function">;
def CHLO_ErfOp : CHLO_UnaryOp<"erf", "error function">;
def CHLO_ErfInvOp : CHLO_UnaryOp<"erf_inv", "inverse error function">;
def CHLO_ErfcOp : CHLO_UnaryOp<"erfc", "complementary error function">;
def CHLO_IsInfOp : CHLO_UnaryOp<"is_inf", "infinity test">;
def CHLO_IsNegInfOp : CHLO_UnaryOp<"is_neg_inf", "negative infinity test">;
def CHLO_IsPosInfOp : CHLO_UnaryOp<"is_pos_inf", "positive infinity test">;
def CHLO_LgammaOp : CHLO_UnaryOp<"lgamma", "log of the absolute gamma function">;
def CHLO_SinhOp : CHLO_UnaryOp<"sinh", "hyperbolic sine">;
def CHLO_SquareOp : CHLO_UnaryOp<"square", "square">;
def CHLO_TanOp : CHLO_UnaryOp<"tan", "tangent">;

// `%r = chlo.next_after %x, %y : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>`.
class CHLO_BinaryOp<string mnemonic, string what> : CHLO_Op<mnemonic, [Pure]> {
  let summary = what;
  let description = "chlo.md: `" # mnemonic # "`, elementwise " # what # ".";
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
}

def CHLO_NextAfterOp : CHLO_BinaryOp<"next_after",
    "next representable value towards the second operand">;
def CHLO_PolygammaOp : CHLO_BinaryOp<"polygamma", "polygamma function">;
def CHLO_ZetaOp : CHLO_BinaryOp<"zeta", "Hurwitz zeta function">;

def CHLO_TopKOp : CHLO_Op<"top_k", [Pure]> {
  let summary = "the k largest elements of each row and their indices";
  let description = [{
    `%v, %i = chlo.top_k(%x, k = 2) : tensor<5x3xf32> -> (tensor<5x2xf32>,
    tensor<5x2xi32>)`: along the last dimension, in descending order.
  }];
  let arguments = (ins AnyRankedTensor:$operand, I64Attr:$k);
  let results = (outs AnyRankedTensor:$values, AnyRankedTensor:$indices);
  let assemblyFormat = [{
    `(` $operand `,` `k` `=` $k `)` attr-dict `:` type($operand) `->`
    `(` type($values) `,` type($indices) `)`
  }];
}

#endif // TORUS_CHLO_OPS_TD
