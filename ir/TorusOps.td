//===- TorusOps.td - torus dialect operations --------------*- tablegen -*-===//
//
// HLO semantics with static shapes. Every op verifies its operands and states
// what it checked in its error message, pointing at the op. The docs/
// IR reference is generated from the summaries and descriptions here.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_OPS_TD
#define TORUS_OPS_TD

include "ir/ShardingRuleOpInterface.td"
include "ir/TorusDialect.td"
include "ir/HloOpInterface.td"
include "ir/ScalarOpInterface.td"
include "ir/VJPOpInterface.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"

// HLO's element types: signless integers are HLO's signed ones (s8..s64),
// `ui8`..`ui64` its unsigned ones; i1 is `pred`.
// f8E4M3FN and f8E5M2 are XLA's 8-bit storage floats, computed in f32.
defvar Torus_Floats = [F16, BF16, F32, F64, F8E4M3FN, F8E5M2];
defvar Torus_Ints = [I8, I16, I32, I64, UI8, UI16, UI32, UI64];
// HLO's c64 and c128.
defvar Torus_Complexes = [Complex<F32>, Complex<F64>];
def Torus_ElementType : AnyTypeOf<!listconcat(Torus_Floats, [I1], Torus_Ints,
                                              Torus_Complexes)>;
// Any element type, complex included: what ops that move or select elements
// take.
def Torus_Tensor : StaticShapeTensorOf<!listconcat(Torus_Floats, [I1],
                                                   Torus_Ints, Torus_Complexes)>;
// Any element type but complex: what ops that order elements take.
def Torus_RealTensor : StaticShapeTensorOf<!listconcat(Torus_Floats, [I1], Torus_Ints)>;
def Torus_FloatTensor : StaticShapeTensorOf<Torus_Floats>;
def Torus_ComplexTensor : StaticShapeTensorOf<Torus_Complexes>;
def Torus_FloatOrComplexTensor
    : StaticShapeTensorOf<!listconcat(Torus_Floats, Torus_Complexes)>;
def Torus_NumericTensor : StaticShapeTensorOf<!listconcat(Torus_Floats, Torus_Ints)>;
def Torus_NumericOrComplexTensor
    : StaticShapeTensorOf<!listconcat(Torus_Floats, Torus_Ints, Torus_Complexes)>;
def Torus_IntTensor : StaticShapeTensorOf<Torus_Ints>;
def Torus_IntOrPredTensor : StaticShapeTensorOf<!listconcat([I1], Torus_Ints)>;
def Torus_PredTensor : StaticShapeTensorOf<[I1]>;
def Torus_IndexScalar : 0DTensorOf<Torus_Ints>;
// Replica and partition ids: `i32`, or HLO's own `u32`.
def Torus_IdScalar : 0DTensorOf<[I32, UI32]>;
def Torus_PredScalar : 0DTensorOf<[I1]> {
  let builderCall = "::mlir::RankedTensorType::get({}, $_builder.getI1Type())";
}
def Torus_I32Scalar : 0DTensorOf<[I32]> {
  let builderCall = "::mlir::RankedTensorType::get({}, $_builder.getI32Type())";
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def Torus_ConstantOp : Torus_Op<"constant", [HloOpcode<"constant">, ConstantLike, Pure, Torus_NoGradient,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "a constant tensor";
  let description = [{
    Produces `value` (HLO `constant`).

    ```mlir
    %c = torus.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def Torus_IotaOp : Torus_Op<"iota", [HloOpcode<"iota">, Pure, Torus_NoGradient]> {
  let summary = "indices along one dimension";
  let description = [{
    Each element is its own index along `iota_dimension`, converted to the
    result's element type (HLO `iota`).

    ```mlir
    %i = torus.iota dim = 1 : tensor<2x3xi32>   // [[0, 1, 2], [0, 1, 2]]
    ```
  }];
  let arguments = (ins I64Attr:$iota_dimension);
  let results = (outs Torus_RealTensor:$result);
  let assemblyFormat = "`dim` `=` $iota_dimension attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

// An elementwise op of one operand. Each def says what it computes
// (`let scalarBody`, Torus_ScalarInODS in ir/ScalarOpInterface.td), may say
// how it folds (`let foldsViaDouble`), and gives its gradient (`let vjp` or
// `let noGradient = 1`, Torus_VJPInODS in ir/VJPOpInterface.td).
class Torus_UnaryOp<string mnemonic, Type type, string summaryText,
                    string details, string exampleType = "tensor<4xf32>",
                    string hloName = "">
    : Torus_Op<mnemonic>, Torus_ScalarInODS, Torus_VJPInODS {
  let traits = [Pure, SameOperandsAndResultType, Elementwise,
                Torus_ShardingRuleOpInterface,
                HloOpcode<!if(!empty(hloName), mnemonic, hloName)>]
               # scalarTraits # vjpTraits # extraTraits;
  let extraClassDefinition = vjpDefinition;
  let summary = summaryText;
  let description = "Elementwise " # summaryText # " (HLO `"
    # !if(!empty(hloName), mnemonic, hloName) # "`). " # details # "\n\n```mlir\n%r = torus." # mnemonic # " %x : "
    # exampleType # "\n```";
  let arguments = (ins type:$operand);
  let results = (outs type:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
  let hasFolder = 1;
}

// An elementwise op of one operand whose result element type may differ
// from the operand's (complex to float): the result has the operand's shape.
class Torus_PartOp<string mnemonic, Type operandType, Type resultType,
                   string summaryText, string details, string example,
                   string hloName = "">
    : Torus_Op<mnemonic>, Torus_ScalarInODS, Torus_VJPInODS {
  let traits = [Pure, Elementwise, Torus_ShardingRuleOpInterface,
                HloOpcode<!if(!empty(hloName), mnemonic, hloName)>]
               # scalarTraits # vjpTraits;
  let extraClassDefinition = vjpDefinition;
  let summary = summaryText;
  let description = "Elementwise " # summaryText # " (HLO `"
    # !if(!empty(hloName), mnemonic, hloName) # "`). " # details
    # "\n\n```mlir\n" # example # "\n```";
  let arguments = (ins operandType:$operand);
  let results = (outs resultType:$result);
  // `%x : T` when the result has the operand's type, else
  // `%z : (T) -> R` (ComplexOps.cpp).
  let hasCustomAssemblyFormat = 1;
  // The result type from the operand's: see ComplexOps.cpp.
  let builders = [OpBuilder<(ins "Value":$operand)>];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Torus_AbsOp : Torus_PartOp<"abs", Torus_NumericOrComplexTensor,
    Torus_NumericTensor, "absolute value",
    "For integers the most negative value maps to itself (two's complement); "
    "unsigned values are their own absolute value. The result has the "
    "operand's type, except that of a complex operand it is the modulus, "
    "of the part type (`f32` for `complex<f32>`).",
    "%r = torus.abs %x : tensor<4xf32>\n%m = torus.abs %z : (tensor<4xcomplex<f32>>) -> tensor<4xf32>"> {
  let vjp = [{
    if (isa<ComplexType>(GradBuilder::typeOf(getOperand()).getElementType()))
      return emitOpError("gradient of the modulus of complex numbers is not "
                         "implemented");
    set(0, gb.mul(ct, gb.same<SignOp>(getOperand())));
  }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return b.create<complex::AbsOp>(loc, x[0]);
    if (isFloatType(x[0].getType()))
      return b.create<math::AbsFOp>(loc, x[0]);
    if (isUnsignedInt(x[0].getType()))
      return x[0];
    return b.create<math::AbsIOp>(loc, x[0]);
  }];
}
def Torus_RealOp : Torus_PartOp<"real", Torus_FloatOrComplexTensor,
    Torus_FloatTensor, "real part",
    "Of a `complex<f32>` or `complex<f64>` operand, of the part type; a float "
    "operand is its own real part.",
    "%r = torus.real %z : (tensor<4xcomplex<f32>>) -> tensor<4xf32>"> {
  // JAX: the cotangent becomes the real part of a complex cotangent.
  let vjp = [{
    Type et = GradBuilder::typeOf(getOperand()).getElementType();
    if (!isa<ComplexType>(et)) {
      set(0, ct);
    } else {
      OpBuilder &b = gb.builder();
      set(0, b.create<ComplexOp>(gb.location(), ct, gb.zerosLike(ct)));
    }
  }];
  let scalarBody = [{ return realPart(b, loc, x[0]); }];
}
def Torus_ImagOp : Torus_PartOp<"imag", Torus_FloatOrComplexTensor,
    Torus_FloatTensor, "imaginary part",
    "Of a `complex<f32>` or `complex<f64>` operand, of the part type; of a "
    "float operand, zero.",
    "%r = torus.imag %z : (tensor<4xcomplex<f32>>) -> tensor<4xf32>"> {
  // JAX: the cotangent t becomes complex(0, -t).
  let vjp = [{
    Type et = GradBuilder::typeOf(getOperand()).getElementType();
    if (!isa<ComplexType>(et)) {
      set(0, gb.zerosLike(getOperand()));
    } else {
      OpBuilder &b = gb.builder();
      set(0, b.create<ComplexOp>(gb.location(), gb.zerosLike(ct), gb.neg(ct)));
    }
  }];
  let scalarBody = [{ return imagPart(b, loc, x[0]); }];
}

def Torus_ComplexOp : Torus_Op<"complex", [HloOpcode<"complex">, ScalarBody<[{
      return b.create<complex::CreateOp>(
          loc, ComplexType::get(x[0].getType()), x[0], x[1]);
    }]>,
    Pure, Elementwise, SameTypeOperands, Torus_HasVJP,
    Torus_ShardingRuleOpInterface]> {
  let summary = "complex numbers from their parts";
  let description = [{
    `lhs + i * rhs` elementwise (HLO `complex`): two `f32` tensors give a
    `complex<f32>` tensor, two `f64` tensors a `complex<f64>` one, of their
    shape.

    ```mlir
    %z = torus.complex %re, %im : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
    ```
  }];
  let arguments = (ins TensorOf<[F32, F64]>:$lhs, TensorOf<[F32, F64]>:$rhs);
  let results = (outs Torus_ComplexTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let builders = [OpBuilder<(ins "Value":$lhs, "Value":$rhs)>];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Torus_NegateOp : Torus_UnaryOp<"negate", Torus_NumericOrComplexTensor, "negation",
    "Integers wrap around."> {
  let vjp = [{ set(0, gb.neg(ct)); }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return b.create<complex::NegOp>(loc, x[0]);
    if (isFloatType(x[0].getType()))
      return b.create<arith::NegFOp>(loc, x[0]);
    return b.create<arith::SubIOp>(loc, cst(b, loc, x[0].getType(), 0), x[0]);
  }];
}
def Torus_SignOp : Torus_UnaryOp<"sign", Torus_NumericOrComplexTensor, "sign",
    "-1, 0 or 1 by the sign of the operand; for floats `±0` stays `±0` and "
    "NaN stays NaN; for complex numbers `x / |x|` (0 for 0)."> {
  // Piecewise constant: zero gradient almost everywhere (as in JAX).
  let vjp = [{ set(0, gb.zerosLike(getOperand())); }];
  let scalarBody = [{
    Type t = x[0].getType();
    if (isComplexType(t))
      return b.create<complex::SignOp>(loc, x[0]);
    if (isFloatType(t)) {
      // XLA's: NaN for NaN, else copysign(x != 0 ? 1 : 0, x). The zero is
      // computed, not x passed through, so a subnormal (zero under DAZ)
      // gives a signed zero.
      Value nonZero = cmpf(b, loc, arith::CmpFPredicate::ONE, x[0], cst(b, loc, t, 0));
      Value magnitude = select(b, loc, nonZero, cst(b, loc, t, 1.0),
                               cst(b, loc, t, 0.0));
      Value sign = b.create<math::CopySignOp>(loc, magnitude, x[0]);
      Value isNaN = cmpf(b, loc, arith::CmpFPredicate::UNO, x[0], x[0]);
      return select(b, loc, isNaN, x[0], sign);
    }
    Value zero = cst(b, loc, t, 0);
    Value pos = b.create<arith::ExtUIOp>(
        loc, t, cmpi(b, loc, arith::CmpIPredicate::ne, x[0], zero));
    if (isUnsignedInt(t))
      return pos;
    pos = b.create<arith::ExtUIOp>(
        loc, t, cmpi(b, loc, arith::CmpIPredicate::sgt, x[0], zero));
    Value neg = b.create<arith::ExtUIOp>(
        loc, t, cmpi(b, loc, arith::CmpIPredicate::slt, x[0], zero));
    return b.create<arith::SubIOp>(loc, pos, neg);
  }];
}
def Torus_ExpOp : Torus_UnaryOp<"exp", Torus_FloatOrComplexTensor, "exponential",
    "`e^x`.", "tensor<4xf32>", "exponential"> {
  let vjp = [{ set(0, gb.mul(ct, getResult())); }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return b.create<complex::ExpOp>(loc, x[0]); return b.create<math::ExpOp>(loc, x[0]); }];
  let foldsViaDouble = "std::exp";
}
def Torus_Expm1Op : Torus_UnaryOp<"expm1", Torus_FloatOrComplexTensor,
    "exponential minus one",
    "`e^x - 1`, accurate for `x` near zero.", "tensor<4xf32>",
    "exponential-minus-one"> {
  let vjp = [{
    set(0, gb.mul(ct, gb.add(getResult(), gb.splat(gb.typeOf(ct), 1.0))));
  }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return b.create<complex::Expm1Op>(loc, x[0]); return expm1Of(b, loc, x[0]); }];
  let foldsViaDouble = "std::expm1";
}
def Torus_LogOp : Torus_UnaryOp<"log", Torus_FloatOrComplexTensor, "natural logarithm",
    "NaN for negative operands, `-inf` for zero."> {
  let vjp = [{ set(0, gb.div(ct, getOperand())); }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return b.create<complex::LogOp>(loc, x[0]); return b.create<math::LogOp>(loc, x[0]); }];
  let foldsViaDouble = "std::log";
}
def Torus_Log1pOp : Torus_UnaryOp<"log1p", Torus_FloatOrComplexTensor,
    "logarithm of one plus the operand",
    "`log(1 + x)`, accurate for `x` near zero.", "tensor<4xf32>",
    "log-plus-one"> {
  let vjp = [{
    set(0, gb.div(ct, gb.add(getOperand(), gb.splat(gb.typeOf(ct), 1.0))));
  }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return complexLog1pOf(b, loc, x[0]); return log1pOf(b, loc, x[0]); }];
  let foldsViaDouble = "std::log1p";
}
def Torus_SqrtOp : Torus_UnaryOp<"sqrt", Torus_FloatOrComplexTensor, "square root",
    "NaN for negative operands."> {
  // d sqrt(x) = 1 / (2 sqrt(x))
  let vjp = [{
    set(0, gb.div(ct, gb.mul(getResult(), gb.splat(gb.typeOf(ct), 2.0))));
  }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return b.create<complex::SqrtOp>(loc, x[0]); return b.create<math::SqrtOp>(loc, x[0]); }];
  let foldsViaDouble = "std::sqrt";
}
def Torus_RsqrtOp : Torus_UnaryOp<"rsqrt", Torus_FloatOrComplexTensor,
    "reciprocal square root", "`1 / sqrt(x)`."> {
  // d x^-1/2 = -1/2 x^-3/2 = -0.5 * y / x
  let vjp = [{
    Value half = gb.splat(gb.typeOf(ct), -0.5);
    set(0, gb.mul(ct, gb.div(gb.mul(half, getResult()), getOperand())));
  }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return b.create<complex::RsqrtOp>(loc, x[0]);
    return b.create<arith::DivFOp>(loc, cst(b, loc, x[0].getType(), 1.0),
                                   b.create<math::SqrtOp>(loc, x[0]));
  }];
  let foldsViaDouble = "[](double v) { return 1.0 / std::sqrt(v); }";
}
def Torus_TanhOp : Torus_UnaryOp<"tanh", Torus_FloatOrComplexTensor,
    "hyperbolic tangent", ""> {
  let vjp = [{
    Value one = gb.splat(gb.typeOf(ct), 1.0);
    set(0, gb.mul(ct, gb.sub(one, gb.mul(getResult(), getResult()))));
  }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return b.create<complex::TanhOp>(loc, x[0]); return tanhOf(b, loc, x[0]); }];
  let foldsViaDouble = "std::tanh";
}
def Torus_LogisticOp : Torus_UnaryOp<"logistic", Torus_FloatOrComplexTensor,
    "logistic sigmoid", "`1 / (1 + e^-x)`."> {
  let vjp = [{
    Value one = gb.splat(gb.typeOf(ct), 1.0);
    set(0, gb.mul(ct, gb.mul(getResult(), gb.sub(one, getResult()))));
  }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return complexLogistic(b, loc, x[0]);
    Value one = cst(b, loc, x[0].getType(), 1.0);
    Value e = b.create<math::ExpOp>(loc, b.create<arith::NegFOp>(loc, x[0]));
    return b.create<arith::DivFOp>(loc, one, b.create<arith::AddFOp>(loc, one, e));
  }];
  let foldsViaDouble = "[](double v) { return 1.0 / (1.0 + std::exp(-v)); }";
}
def Torus_SinOp : Torus_UnaryOp<"sin", Torus_FloatOrComplexTensor, "sine",
    "In radians.", "tensor<4xf32>",
    "sine"> {
  let vjp = [{ set(0, gb.mul(ct, gb.same<CosOp>(getOperand()))); }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return b.create<complex::SinOp>(loc, x[0]); return b.create<math::SinOp>(loc, x[0]); }];
  let foldsViaDouble = "std::sin";
}
def Torus_CosOp : Torus_UnaryOp<"cos", Torus_FloatOrComplexTensor, "cosine",
    "In radians.", "tensor<4xf32>",
    "cosine"> {
  let vjp = [{
    set(0, gb.neg(gb.mul(ct, gb.same<SinOp>(getOperand()))));
  }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return b.create<complex::CosOp>(loc, x[0]); return b.create<math::CosOp>(loc, x[0]); }];
  let foldsViaDouble = "std::cos";
}
def Torus_TanOp : Torus_UnaryOp<"tan", Torus_FloatOrComplexTensor, "tangent",
    "In radians, computed in f64 as `sin(x) / cos(x)` and rounded once."> {
  // d tan(x) = 1 + tan(x)^2
  let vjp = [{
    Value one = gb.splat(gb.typeOf(ct), 1.0);
    set(0, gb.mul(ct, gb.add(one, gb.mul(getResult(), getResult()))));
  }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return b.create<complex::TanOp>(loc, x[0]);
    Type t = x[0].getType(), f64 = b.getF64Type();
    Value v = t == f64 ? x[0] : b.create<arith::ExtFOp>(loc, f64, x[0]);
    Value r = b.create<arith::DivFOp>(loc, b.create<math::SinOp>(loc, v),
                                      b.create<math::CosOp>(loc, v));
    return t == f64 ? r : b.create<arith::TruncFOp>(loc, t, r).getResult();
  }];
  let foldsViaDouble = "std::tan";
}
def Torus_FloorOp : Torus_UnaryOp<"floor", Torus_FloatTensor,
    "round toward negative infinity", ""> {
  // Piecewise constant: zero gradient almost everywhere (as in JAX).
  let vjp = [{ set(0, gb.zerosLike(getOperand())); }];
  let scalarBody = [{ return b.create<math::FloorOp>(loc, x[0]); }];
}
def Torus_CeilOp : Torus_UnaryOp<"ceil", Torus_FloatTensor,
    "round toward positive infinity", ""> {
  // Piecewise constant: zero gradient almost everywhere (as in JAX).
  let vjp = [{ set(0, gb.zerosLike(getOperand())); }];
  let scalarBody = [{ return b.create<math::CeilOp>(loc, x[0]); }];
}
def Torus_RoundNearestEvenOp : Torus_UnaryOp<"round_nearest_even",
    Torus_FloatTensor, "round to the nearest integer, ties to even", "",
    "tensor<4xf32>", "round-nearest-even"> {
  // Piecewise constant: zero gradient almost everywhere (as in JAX).
  let vjp = [{ set(0, gb.zerosLike(getOperand())); }];
  let scalarBody = [{ return b.create<math::RoundEvenOp>(loc, x[0]); }];
}
def Torus_RoundNearestAfzOp : Torus_UnaryOp<"round_nearest_afz",
    Torus_FloatTensor, "round to the nearest integer, ties away from zero",
    "C `round`: `2.5` gives `3`, `-2.5` gives `-3`.",
    "tensor<4xf32>", "round-nearest-afz"> {
  // Piecewise constant: zero gradient almost everywhere (as in JAX).
  let vjp = [{ set(0, gb.zerosLike(getOperand())); }];
  let scalarBody = [{ return b.create<math::RoundOp>(loc, x[0]); }];
}
def Torus_CbrtOp : Torus_UnaryOp<"cbrt", Torus_FloatTensor, "cube root",
    "Real, so negative for negative operands: `cbrt(-8) = -2`. C `cbrt` "
    "(libm), correctly rounded or nearly."> {
  // d cbrt(x) = 1 / (3 cbrt(x)^2)
  let vjp = [{
    Value three = gb.splat(gb.typeOf(ct), 3.0);
    set(0, gb.div(ct, gb.mul(three, gb.mul(getResult(), getResult()))));
  }];
  let scalarBody = [{ return b.create<math::CbrtOp>(loc, x[0]); }];
  let foldsViaDouble = "std::cbrt";
}
def Torus_ErfOp : Torus_UnaryOp<"erf", Torus_FloatTensor, "error function",
    "`2/sqrt(pi)` times the integral of `e^-t^2` from 0 to `x`; C `erf` "
    "(libm)."> {
  // d erf(x) = 2/sqrt(pi) e^-x^2
  let vjp = [{
    Value x = getOperand();
    auto type = gb.typeOf(ct);
    Value e = gb.exp(gb.neg(gb.mul(x, x)));
    const double twoOverSqrtPi = 1.1283791670955126;
    set(0, gb.mul(ct, gb.mul(gb.splat(type, twoOverSqrtPi), e)));
  }];
  let scalarBody = [{ return b.create<math::ErfOp>(loc, x[0]); }];
  let foldsViaDouble = "std::erf";
}
def Torus_NotOp : Torus_UnaryOp<"not", Torus_IntOrPredTensor, "bitwise not",
    "Logical not for `i1`.", "tensor<4xi1>"> {
  let noGradient = 1;
  let scalarBody = [{
    Type t = x[0].getType();
    return b.create<arith::XOrIOp>(
        loc, x[0], intConstant(b, loc, t, APInt::getAllOnes(t.getIntOrFloatBitWidth())));
  }];
}

def Torus_PopcntOp : Torus_UnaryOp<"popcnt", Torus_IntTensor,
    "population count", "The number of one bits.", "tensor<4xi32>"> {
  let noGradient = 1;
  let scalarBody = [{ return b.create<math::CtPopOp>(loc, x[0]); }];
}
def Torus_CountLeadingZerosOp : Torus_UnaryOp<"count_leading_zeros",
    Torus_IntTensor, "count of leading zero bits",
    "The width of the type for 0.", "tensor<4xi32>", "count-leading-zeros"> {
  let noGradient = 1;
  let scalarBody = [{ return b.create<math::CountLeadingZerosOp>(loc, x[0]); }];
}

def Torus_IsFiniteOp : Torus_Op<"is_finite", [HloOpcode<"is-finite">, ScalarBody<[{
      return cmpf(b, loc, arith::CmpFPredicate::OLT,
                  b.create<math::AbsFOp>(loc, x[0]),
                  cst(b, loc, x[0].getType(), std::numeric_limits<double>::infinity()));
    }]>,
    Pure, Elementwise,
    Torus_NoGradient,
    Torus_ShardingRuleOpInterface]> {
  let summary = "elementwise finiteness test";
  let description = [{
    True where the operand is neither infinite nor NaN (HLO `is-finite`).
    The result has the operand's shape and element type `i1`.

    ```mlir
    %p = torus.is_finite %x : (tensor<4xf32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Torus_FloatTensor:$operand);
  let results = (outs Torus_PredTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let builders = [OpBuilder<(ins "Value":$operand)>];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

// An elementwise op of two operands of one type; its defs say what the
// unary ones say (above).
class Torus_BinaryOp<string mnemonic, Type type, string summaryText,
                     string details, string hloName = "">
    : Torus_Op<mnemonic>, Torus_ScalarInODS, Torus_VJPInODS {
  let traits = [Pure, SameOperandsAndResultType, Elementwise,
                Torus_ShardingRuleOpInterface,
                HloOpcode<!if(!empty(hloName), mnemonic, hloName)>]
               # scalarTraits # vjpTraits # extraTraits;
  let extraClassDefinition = vjpDefinition;
  let summary = summaryText;
  let description = "Elementwise " # summaryText # " of two tensors of one "
    # "type (HLO `" # !if(!empty(hloName), mnemonic, hloName) # "`). "
    # details # " Broadcasting is "
    # "explicit, through `torus.broadcast_in_dim`.\n\n```mlir\n%r = torus."
    # mnemonic # " %a, %b : tensor<4xf32>\n```";
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Torus_AddOp : Torus_BinaryOp<"add", Torus_Tensor, "sum",
    "Integers wrap around; for `i1` it is logical or; complex numbers add "
    "their parts."> {
  let vjp = [{ set(0, ct); set(1, ct); }];
  let scalarBody = [{ return combine(b, loc, ReduceKind::sum, x[0], x[1]); }];
}
def Torus_SubtractOp : Torus_BinaryOp<"subtract", Torus_NumericOrComplexTensor,
    "difference", "Integers wrap around."> {
  let vjp = [{ set(0, ct); set(1, gb.neg(ct)); }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return b.create<complex::SubOp>(loc, x[0], x[1]);
    if (isFloatType(x[0].getType()))
      return b.create<arith::SubFOp>(loc, x[0], x[1]);
    return b.create<arith::SubIOp>(loc, x[0], x[1]);
  }];
}
def Torus_MultiplyOp : Torus_BinaryOp<"multiply", Torus_Tensor, "product",
    "Integers wrap around; for `i1` it is logical and."> {
  let vjp = [{
    set(0, gb.mul(ct, getRhs()));
    set(1, gb.mul(ct, getLhs()));
  }];
  let scalarBody = [{ return combine(b, loc, ReduceKind::product, x[0], x[1]); }];
}
def Torus_DivideOp : Torus_BinaryOp<"divide", Torus_NumericOrComplexTensor, "quotient",
    "Integer division rounds toward zero; as in XLA, `x / 0` is -1 and "
    "`INT_MIN / -1` is `INT_MIN`."> {
  // d(a/b) = da/b - a/b * db/b
  let vjp = [{
    Value ctOverB = gb.div(ct, getRhs());
    set(0, ctOverB);
    set(1, gb.neg(gb.mul(ctOverB, getResult())));
  }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return b.create<complex::DivOp>(loc, x[0], x[1]);
    if (isFloatType(x[0].getType()))
      return b.create<arith::DivFOp>(loc, x[0], x[1]);
    return integerDivide(b, loc, x[0], x[1], /*remainder=*/false);
  }];
}
def Torus_RemainderOp : Torus_BinaryOp<"remainder", Torus_NumericTensor,
    "remainder",
    "The result has the sign of the dividend (C `fmod` and `%`); as in XLA, "
    "`x % 0` is `x` and `INT_MIN % -1` is 0 for integers."> {
  // a - b * trunc(a / b): d/da = 1, d/db = -trunc(a / b).
  let vjp = [{
    Value q = gb.div(getLhs(), getRhs());
    Value trunc = gb.mul(gb.same<SignOp>(q),
                         gb.same<FloorOp>(gb.same<AbsOp>(q)));
    set(0, ct);
    set(1, gb.neg(gb.mul(ct, trunc)));
  }];
  let scalarBody = [{
    if (isFloatType(x[0].getType()))
      return b.create<arith::RemFOp>(loc, x[0], x[1]);
    return integerDivide(b, loc, x[0], x[1], /*remainder=*/true);
  }];
}
def Torus_PowerOp : Torus_BinaryOp<"power", Torus_NumericOrComplexTensor, "power",
    "`lhs ^ rhs`. Integers are exact (repeated squaring, wrapping); a "
    "negative integer exponent gives 0 unless the base is 1 or -1."> {
  // d a^b / da = b a^(b-1); d a^b / db = log(a) a^b (log(1) at a = 0, as JAX
  // does, so 0^b has a finite exponent gradient).
  let vjp = [{
    Value a = getLhs(), bb = getRhs(), y = getResult();
    auto type = GradBuilder::typeOf(a);
    Value bMinus1 = gb.sub(bb, gb.splat(type, 1.0));
    set(0, gb.mul(ct, gb.mul(bb, gb.same<PowerOp>(a, bMinus1))));
    Value isZero = gb.compare(ComparisonDirection::EQ, a, gb.splat(type, 0));
    Value safeA = gb.select(isZero, gb.splat(type, 1.0), a);
    set(1, gb.mul(ct, gb.mul(gb.same<LogOp>(safeA), y)));
  }];
  let scalarBody = [{
    if (isComplexType(x[0].getType()))
      return b.create<complex::PowOp>(loc, x[0], x[1]);
    if (isFloatType(x[0].getType()))
      return b.create<math::PowFOp>(loc, x[0], x[1]);
    return integerPower(b, loc, x[0], x[1]);
  }];
}
def Torus_MaximumOp : Torus_BinaryOp<"maximum", Torus_RealTensor, "maximum",
    "NaN if either operand is NaN; logical or for `i1`."> {
  // JAX: the larger operand gets the cotangent; ties split it in two.
  let vjp = [{
    auto type = GradBuilder::typeOf(getLhs());
    Type et = type.getElementType();
    Value gt = gb.convert(
        gb.compare(ComparisonDirection::GT, getLhs(), getRhs()), et);
    Value eq = gb.convert(
        gb.compare(ComparisonDirection::EQ, getLhs(), getRhs()), et);
    Value half = gb.mul(eq, gb.splat(type, 0.5));
    Value lhsShare = gb.add(gt, half);
    Value rhsShare = gb.sub(gb.splat(type, 1.0), lhsShare);
    set(0, gb.mul(ct, lhsShare));
    set(1, gb.mul(ct, rhsShare));
  }];
  let scalarBody = [{ return combine(b, loc, ReduceKind::max, x[0], x[1]); }];
}
def Torus_MinimumOp : Torus_BinaryOp<"minimum", Torus_RealTensor, "minimum",
    "NaN if either operand is NaN; logical and for `i1`."> {
  // As maximum, mirrored: the smaller operand gets the cotangent.
  let vjp = [{
    auto type = GradBuilder::typeOf(getLhs());
    Type et = type.getElementType();
    Value lt = gb.convert(
        gb.compare(ComparisonDirection::LT, getLhs(), getRhs()), et);
    Value eq = gb.convert(
        gb.compare(ComparisonDirection::EQ, getLhs(), getRhs()), et);
    Value lhsShare = gb.add(lt, gb.mul(eq, gb.splat(type, 0.5)));
    set(0, gb.mul(ct, lhsShare));
    set(1, gb.mul(ct, gb.sub(gb.splat(type, 1.0), lhsShare)));
  }];
  let scalarBody = [{ return combine(b, loc, ReduceKind::min, x[0], x[1]); }];
}
def Torus_Atan2Op : Torus_BinaryOp<"atan2", Torus_FloatTensor,
    "two-argument arctangent",
    "The angle of the point `(rhs, lhs)` in `[-π, π]`, as C `atan2(lhs, "
    "rhs)`."> {
  // atan2(a, b): d/da = b / (a^2 + b^2), d/db = -a / (a^2 + b^2).
  let vjp = [{
    Value a = getLhs(), bb = getRhs();
    Value norm = gb.add(gb.mul(a, a), gb.mul(bb, bb));
    set(0, gb.mul(ct, gb.div(bb, norm)));
    set(1, gb.neg(gb.mul(ct, gb.div(a, norm))));
  }];
  let scalarBody = [{ return atan2Of(b, loc, x[0], x[1]); }];
}
def Torus_AndOp : Torus_BinaryOp<"and", Torus_IntOrPredTensor, "bitwise and",
    "Logical and for `i1`."> {
  let noGradient = 1;
  let scalarBody = [{ return b.create<arith::AndIOp>(loc, x[0], x[1]); }];
}
def Torus_OrOp : Torus_BinaryOp<"or", Torus_IntOrPredTensor, "bitwise or",
    "Logical or for `i1`."> {
  let noGradient = 1;
  let scalarBody = [{ return b.create<arith::OrIOp>(loc, x[0], x[1]); }];
}
def Torus_XorOp : Torus_BinaryOp<"xor", Torus_IntOrPredTensor,
    "bitwise exclusive or", "Logical xor for `i1`."> {
  let noGradient = 1;
  let scalarBody = [{ return b.create<arith::XOrIOp>(loc, x[0], x[1]); }];
}

// The shifts read the amount as unsigned: an amount of the width or more
// shifts every bit out (XLA's semantics, where C and LLVM leave it
// undefined).
def Torus_ShiftLeftOp : Torus_BinaryOp<"shift_left", Torus_IntTensor,
    "left shift",
    "`lhs << rhs`, zeros shifted in; 0 where `rhs`, read as unsigned, is at "
    "least the bit width.", "shift-left"> {
  let noGradient = 1;
  let scalarBody = [{
    Type t = x[0].getType();
    Value zero = cst(b, loc, t, 0);
    Value out = cmpi(b, loc, arith::CmpIPredicate::uge, x[1],
                     cst(b, loc, t, t.getIntOrFloatBitWidth()));
    Value r = b.create<arith::ShLIOp>(loc, x[0], x[1]);
    return select(b, loc, out, zero, r);
  }];
}
def Torus_ShiftRightArithmeticOp : Torus_BinaryOp<"shift_right_arithmetic",
    Torus_IntTensor, "arithmetic right shift",
    "`lhs >> rhs`, copies of the sign bit shifted in; where `rhs`, read as "
    "unsigned, is at least the bit width, 0 or -1 by the sign of `lhs`.",
    "shift-right-arithmetic"> {
  let noGradient = 1;
  let scalarBody = [{
    Type t = x[0].getType();
    unsigned width = t.getIntOrFloatBitWidth();
    Value out = cmpi(b, loc, arith::CmpIPredicate::uge, x[1],
                     cst(b, loc, t, width));
    Value amount = select(b, loc, out, cst(b, loc, t, width - 1), x[1]);
    return b.create<arith::ShRSIOp>(loc, x[0], amount);
  }];
}
def Torus_ShiftRightLogicalOp : Torus_BinaryOp<"shift_right_logical",
    Torus_IntTensor, "logical right shift",
    "`lhs >> rhs`, zeros shifted in; 0 where `rhs`, read as unsigned, is at "
    "least the bit width.", "shift-right-logical"> {
  let noGradient = 1;
  let scalarBody = [{
    Type t = x[0].getType();
    Value zero = cst(b, loc, t, 0);
    Value out = cmpi(b, loc, arith::CmpIPredicate::uge, x[1],
                     cst(b, loc, t, t.getIntOrFloatBitWidth()));
    Value r = b.create<arith::ShRUIOp>(loc, x[0], x[1]);
    return select(b, loc, out, zero, r);
  }];
}

//===----------------------------------------------------------------------===//
// Comparison, selection, conversion
//===----------------------------------------------------------------------===//

def Torus_CompareOp : Torus_Op<"compare", [HloOpcode<"compare">, ScalarBody<[{
      return compareScalar(b, loc, getComparisonDirection(), x[0], x[1],
                           getTotalOrder());
    }]>,
    Pure, Elementwise,
    SameTypeOperands, Torus_NoGradient,
    Torus_ShardingRuleOpInterface]> {
  let summary = "elementwise comparison";
  let description = [{
    Compares `lhs` and `rhs` elementwise with `comparison_direction` and
    yields an `i1` tensor of their shape (HLO `compare`). Floats compare
    ordered (false if either is NaN) except `NE`, which is true for NaN;
    integers compare by their sign, and `i1` as unsigned (`false < true`).
    With `total_order` (HLO `type=TOTALORDER`) floats compare in IEEE total
    order: -NaN < -inf < ... < -0 < +0 < ... < inf < NaN, NaN equal to NaN
    of the same sign. Complex numbers compare `EQ` (both parts equal) and
    `NE` only.

    ```mlir
    %p = torus.compare LT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Torus_ComparisonDirection:$comparison_direction,
                       Torus_Tensor:$lhs, Torus_Tensor:$rhs,
                       UnitAttr:$total_order);
  let results = (outs Torus_PredTensor:$result);
  let assemblyFormat = [{
    $comparison_direction `,` $lhs `,` $rhs attr-dict `:`
    functional-type(operands, results)
  }];
  let builders = [OpBuilder<(ins "ComparisonDirection":$direction,
                                 "Value":$lhs, "Value":$rhs)>];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Torus_SelectOp : Torus_Op<"select", [HloOpcode<"select">, ScalarBody<[{
      return select(b, loc, x[0], x[1], x[2]);
    }]>,
    Pure, Torus_HasVJP,
    AllTypesMatch<["on_true", "on_false", "result"]>,
    Torus_ShardingRuleOpInterface]> {
  let summary = "elementwise choice";
  let description = [{
    `pred ? on_true : on_false` elementwise (HLO `select`). `pred` has the
    shape of the result, or is a scalar (`tensor<i1>`) that chooses whole
    tensors.

    ```mlir
    %r = torus.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>
    ```
  }];
  let arguments = (ins Torus_PredTensor:$pred, Torus_Tensor:$on_true,
                       Torus_Tensor:$on_false);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $pred `,` $on_true `,` $on_false attr-dict `:` type($pred) `,` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Torus_ClampOp : Torus_Op<"clamp", [HloOpcode<"clamp">, ScalarBody<[{
      Value lo = combine(b, loc, ReduceKind::max, x[1], x[0]);
      return combine(b, loc, ReduceKind::min, lo, x[2]);
    }]>,
    Pure, Torus_HasVJP,
    AllTypesMatch<["operand", "result"]>,
    Torus_ShardingRuleOpInterface]> {
  let summary = "elementwise clamp to a range";
  let description = [{
    `min(max(operand, min), max)` elementwise (HLO `clamp`; note the operand
    order `min, operand, max`). `min` and `max` have the operand's type or
    are scalars of its element type. Floats propagate NaN from any operand.

    ```mlir
    %r = torus.clamp %lo, %x, %hi : (tensor<f32>, tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Torus_NumericTensor:$min, Torus_NumericTensor:$operand,
                       Torus_NumericTensor:$max);
  let results = (outs Torus_NumericTensor:$result);
  let assemblyFormat = [{
    $min `,` $operand `,` $max attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Torus_ConvertOp : Torus_Op<"convert", [HloOpcode<"convert">, ScalarBody<[{
      return convertScalar(b, loc, x[0], getType().getElementType());
    }], 0>,
    Pure, Elementwise,
    Torus_HasVJP,
    Torus_ShardingRuleOpInterface]> {
  let summary = "elementwise element-type conversion";
  let description = [{
    Converts each element to the result's element type (HLO `convert`).
    Float to integer rounds toward zero and saturates (NaN becomes 0, as in
    XLA); integer to float rounds to nearest; anything to `i1` is `x != 0`;
    `i1` converts as 0 or 1.

    ```mlir
    %f = torus.convert %i : (tensor<4xi32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Torus_BitcastConvertOp : Torus_Op<"bitcast_convert", [
    HloOpcode<"bitcast-convert">, ScalarBody<[{
      return b.create<arith::BitcastOp>(loc, getType().getElementType(), x[0]);
    }], 0>,
    Pure, Elementwise,
    Torus_NoGradient,
    Torus_ShardingRuleOpInterface]> {
  let summary = "elementwise reinterpretation of the bits";
  let description = [{
    Each element's bits read as the result's element type, which has the
    same width (HLO `bitcast-convert`): `f32` and `i32`, `f64` and `i64`,
    `f16` and `bf16` (and the 16-bit integers). HLO's width-changing form,
    which adds or drops a dimension, is not this op: the HLO importer writes
    it, between 32 and 64 bits, as integer ops on the bits.

    ```mlir
    %i = torus.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xi32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Torus_ReducePrecisionOp : Torus_Op<"reduce_precision", [
    HloOpcode<"reduce-precision">, ScalarBody<[{
      // On its own bits, except for the f8 types, which have no
      // arithmetic: those in f32 (exact), rounded back.
      Value v = isFloat8(x[0].getType()) ? widenHalf(b, loc, x[0]) : x[0];
      return narrowTo(b, loc, reducePrecision(b, loc, v, getExponentBits(),
                                              getMantissaBits()),
                      x[0].getType());
    }], 0>,
    Pure, SameOperandsAndResultType, Elementwise,
    Torus_HasVJP,
    Torus_ShardingRuleOpInterface]> {
  let summary = "elementwise rounding to a narrower float format";
  let description = [{
    Rounds each element to the float format of `exponent_bits` exponent and
    `mantissa_bits` mantissa bits and back, keeping its type (HLO
    `reduce-precision`), by XLA's algorithm on the element's own bits: the
    mantissa rounds to nearest, ties to even; then, if the format has fewer
    exponent bits than the type, values beyond its range become infinity and
    values below its smallest normal become zero (no subnormals). NaN stays
    NaN (infinity when `mantissa_bits` is 0). As in JAX, which counts the op
    as linear, the cotangent passes through rounded the same way.

    ```mlir
    %r = torus.reduce_precision %x, exponent_bits = 5, mantissa_bits = 10 : tensor<4xf32>
    ```
  }];
  let arguments = (ins Torus_FloatTensor:$operand, I32Attr:$exponent_bits,
                       I32Attr:$mantissa_bits);
  let results = (outs Torus_FloatTensor:$result);
  let assemblyFormat = [{
    $operand `,` `exponent_bits` `=` $exponent_bits `,` `mantissa_bits` `=`
    $mantissa_bits attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def Torus_BroadcastInDimOp : Torus_Op<"broadcast_in_dim",
    [HloOpcode<"broadcast">, Pure, Torus_HasVJP,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap"]>]> {
  let summary = "broadcast to a larger shape along given dimensions";
  let description = [{
    Operand dimension `i` becomes result dimension `broadcast_dimensions[i]`
    and must be 1 or of the same size; the other result dimensions are new
    (HLO `broadcast_in_dim`).

    ```mlir
    %r = torus.broadcast_in_dim %v, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand,
                       DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $broadcast_dimensions attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Torus_ReshapeOp : Torus_Op<"reshape", [HloOpcode<"reshape">, Pure, Torus_HasVJP]> {
  let summary = "row-major reshape";
  let description = [{
    Reinterprets the elements, in row-major order, with the result's shape,
    which has the same number of elements (HLO `reshape`).

    ```mlir
    %r = torus.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Torus_TransposeOp : Torus_Op<"transpose", [HloOpcode<"transpose">, Pure, Torus_HasVJP,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap"]>]> {
  let summary = "permute dimensions";
  let description = [{
    Result dimension `i` is operand dimension `permutation[i]` (HLO
    `transpose`).

    Canonicalization moves a transpose that only swaps the free dimensions
    of a `dot_general`'s result into the product, by swapping its operands
    (the autodiff's weight gradients have this form): no transposed copy
    is made, and every element is the same sum in the same order.

    ```mlir
    %d = torus.dot_general %dy, %x, batching_dims = [] x [], contracting_dims = [0] x [0] : (tensor<256x512xf32>, tensor<256x784xf32>) -> tensor<512x784xf32>
    %t = torus.transpose %d, permutation = [1, 0] : (tensor<512x784xf32>) -> tensor<784x512xf32>
    // becomes
    %t = torus.dot_general %x, %dy, batching_dims = [] x [], contracting_dims = [0] x [0] : (tensor<256x784xf32>, tensor<256x512xf32>) -> tensor<784x512xf32>
    ```

    ```mlir
    %t = torus.transpose %x, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `permutation` `=` $permutation attr-dict `:`
    functional-type(operands, results)
  }];
  let builders = [OpBuilder<(ins "Value":$operand,
                                 "ArrayRef<int64_t>":$permutation)>];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Torus_SliceOp : Torus_Op<"slice", [HloOpcode<"slice">, Pure, Torus_HasVJP,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap", "getBlockedResultDims"]>]> {
  let summary = "static strided slice";
  let description = [{
    Takes, along each dimension `d`, the elements `start_indices[d]`,
    `start_indices[d] + strides[d]`, ... below `limit_indices[d]` (HLO
    `slice`). `0 <= start <= limit <= size` and strides are positive; the
    result dimension is `ceil((limit - start) / stride)`.

    ```mlir
    %s = torus.slice %x, start_indices = [0, 1], limit_indices = [4, 3], strides = [2, 1]
         : (tensor<4x3xf32>) -> tensor<2x2xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand,
                       DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices,
                       DenseI64ArrayAttr:$strides);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `start_indices` `=` $start_indices `,` `limit_indices` `=`
    $limit_indices `,` `strides` `=` $strides attr-dict `:`
    functional-type(operands, results)
  }];
  let builders = [OpBuilder<(ins "Value":$operand, "ArrayRef<int64_t>":$start,
                                 "ArrayRef<int64_t>":$limit,
                                 "ArrayRef<int64_t>":$strides)>];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Torus_DynamicSliceOp : Torus_Op<"dynamic_slice", [HloOpcode<"dynamic-slice">, Pure, Torus_HasVJP,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap", "getBlockedResultDims"]>]> {
  let summary = "slice at run-time start indices";
  let description = [{
    A `slice_sizes` block of `operand` starting at `start_indices` (one
    scalar `i32` or `i64` tensor per dimension), HLO `dynamic-slice`. As in
    HLO, each start index is clamped to `[0, size - slice_size]`, so the
    block is always in bounds.

    ```mlir
    %s = torus.dynamic_slice %x[%i, %j], sizes = [2, 3]
         : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand,
                       Variadic<Torus_IndexScalar>:$start_indices,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $operand `[` $start_indices `]` `,` `sizes` `=` $slice_sizes attr-dict `:`
    functional-type(operands, results)
  }];
  let builders = [OpBuilder<(ins "Value":$operand, "ValueRange":$start,
                                 "ArrayRef<int64_t>":$sizes)>];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Torus_DynamicUpdateSliceOp : Torus_Op<"dynamic_update_slice", [HloOpcode<"dynamic-update-slice">, Pure,
    Torus_HasVJP,
    AllTypesMatch<["operand", "result"]>,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap", "getBlockedResultDims"]>]> {
  let summary = "overwrite a block at run-time start indices";
  let description = [{
    `operand` with the block `update` written at `start_indices` (one scalar
    `i32` or `i64` tensor per dimension), HLO `dynamic-update-slice`. Start
    indices are clamped to `[0, size - update_size]`.

    ```mlir
    %r = torus.dynamic_update_slice %x, %u[%i, %j]
         : (tensor<8x8xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand, Torus_Tensor:$update,
                       Variadic<Torus_IndexScalar>:$start_indices);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $update `[` $start_indices `]` attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Torus_ConcatenateOp : Torus_Op<"concatenate", [HloOpcode<"concatenate">, Pure, Torus_HasVJP,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap", "getBlockedResultDims"]>]> {
  let summary = "join tensors along one dimension";
  let description = [{
    The inputs in order along `dimension`; all other dimensions and the
    element type agree (HLO `concatenate`).

    ```mlir
    %r = torus.concatenate(%a, %b), dimension = 0
         : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
    ```
  }];
  let arguments = (ins Variadic<Torus_Tensor>:$inputs, I64Attr:$dimension);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    `(` $inputs `)` `,` `dimension` `=` $dimension attr-dict `:`
    functional-type(operands, results)
  }];
  let builders = [OpBuilder<(ins "ValueRange":$inputs, "int64_t":$dimension)>];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Torus_PadOp : Torus_Op<"pad", [HloOpcode<"pad">, Pure, Torus_HasVJP,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap", "getBlockedResultDims"]>]> {
  let summary = "edge and interior padding";
  let description = [{
    HLO `pad`: along each dimension, `edge_padding_low` copies of
    `padding_value` before the operand's elements, `interior_padding` between
    neighbouring elements and `edge_padding_high` after them. Edge padding
    may be negative, which removes elements from that edge. Result dimension:
    `low + size + (size - 1) * interior + high`.

    ```mlir
    %r = torus.pad %x, %zero, low = [1, 0], high = [1, 2], interior = [0, 1]
         : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x7xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand, Torus_Tensor:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low,
                       DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $padding_value `,` `low` `=` $edge_padding_low `,` `high` `=`
    $edge_padding_high `,` `interior` `=` $interior_padding attr-dict `:`
    functional-type(operands, results)
  }];
  let builders = [OpBuilder<(ins "Value":$operand, "Value":$paddingValue,
                                 "ArrayRef<int64_t>":$low,
                                 "ArrayRef<int64_t>":$high,
                                 "ArrayRef<int64_t>":$interior)>];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Torus_ReverseOp : Torus_Op<"reverse", [HloOpcode<"reverse">, Pure, SameOperandsAndResultType,
    Torus_HasVJP,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap", "getBlockedResultDims"]>]> {
  let summary = "reverse the order of elements along dimensions";
  let description = [{
    HLO `reverse`: element `i` along each of `dimensions` moves to
    `size - 1 - i`.

    ```mlir
    %r = torus.reverse %x, dims = [0] : tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $dimensions attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def Torus_ReduceOp : Torus_Op<"reduce", [HloOpcode<"reduce">, Pure, Torus_HasVJP,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap"]>]> {
  let summary = "reduce over dimensions";
  let description = [{
    Combines the elements along `dimensions` with `kind` and removes those
    dimensions. Kinds: `sum`, `product`, `max`, `min` (floats propagate NaN),
    and `and`, `or` (integers and `i1`; bitwise). This is HLO `reduce` with
    its reducer computation named by a kind and its init value the kind's
    identity (0, 1, -inf, +inf, all ones, 0); the HLO importer recognises the
    usual reducer bodies. `sum` and `product` of `i1` are rejected: convert
    first.

    ```mlir
    %s = torus.reduce sum %x, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Torus_ReduceKind:$kind, Torus_Tensor:$operand,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $kind $operand `,` `dims` `=` $dimensions attr-dict `:`
    functional-type(operands, results)
  }];
  let builders = [OpBuilder<(ins "ReduceKind":$kind, "Value":$operand,
                                 "ArrayRef<int64_t>":$dimensions)>];
  let hasVerifier = 1;
}

class Torus_ArgReduceOp<string mnemonic, string which, string order>
    : Torus_Op<mnemonic, [Pure, Torus_NoGradient,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap"]>]> {
  let summary = "the " # which # " along one dimension and its index";
  let description = "Along `dimension`, the " # which # " element and its "
    # "index (the first one if several are equal), removing the dimension. "
    # "If there is a NaN the first NaN is chosen, as in JAX. HLO expresses "
    # "this as a variadic `reduce` over `(operand, iota)` with a comparator "
    # "(" # order # "); Torus names it so that it stays recognisable for "
    # "differentiation and fast to lower. The index result is `i32` or "
    # "`i64`.\n\n```mlir\n%v, %i = torus." # mnemonic # " %x, dimension = 1"
    # "\n       : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xi32>)\n```";
  let arguments = (ins Torus_NumericTensor:$operand, I64Attr:$dimension);
  let results = (outs Torus_NumericTensor:$values, Torus_IntTensor:$indices);
  let assemblyFormat = [{
    $operand `,` `dimension` `=` $dimension attr-dict `:`
    functional-type(operands, results)
  }];
  let builders = [OpBuilder<(ins "Value":$operand, "int64_t":$dimension,
                                 "Type":$indexType)>];
  let hasVerifier = 1;
}

def Torus_ArgMaxOp : Torus_ArgReduceOp<"argmax", "maximum",
    "GT, ties to the lower index">;
def Torus_ArgMinOp : Torus_ArgReduceOp<"argmin", "minimum",
    "LT, ties to the lower index">;

def Torus_ReduceWindowOp : Torus_Op<"reduce_window", [HloOpcode<"reduce-window">, Pure, Torus_HasVJP,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap", "getBlockedResultDims"]>]> {
  let summary = "reduce sliding windows (pooling)";
  let description = [{
    HLO `reduce-window` with the reducer named by `kind` (`sum`, `product`,
    `max`, `min`, `and`, `or`) and the init value the kind's identity. The
    operand is padded by `padding` (a `[rank, 2]` tensor of low/high pairs,
    filled with the identity) after inserting `base_dilations - 1` holes
    between elements; windows of `window_dimensions`, whose elements are
    `window_dilations` apart, start every `window_strides` elements. Missing
    strides and dilations are 1, missing padding 0. Result dimension:
    `(padded - dilated_window) / stride + 1` (floor), or 0 if the window does
    not fit.

    Max pooling is `max`; average pooling is `sum` divided by the window
    size (or by the count of non-padding elements, itself a `sum` window over
    ones).

    ```mlir
    %p = torus.reduce_window max %x, window = [1, 2, 2, 1]
         {window_strides = array<i64: 1, 2, 2, 1>}
         : (tensor<1x4x4x3xf32>) -> tensor<1x2x2x3xf32>
    ```
  }];
  let arguments = (ins Torus_ReduceKind:$kind, Torus_Tensor:$operand,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$base_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dilations,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $kind $operand `,` `window` `=` $window_dimensions attr-dict `:`
    functional-type(operands, results)
  }];
  let builders = [OpBuilder<(ins "ReduceKind":$kind, "Value":$operand,
      "ArrayRef<int64_t>":$window, "ArrayRef<int64_t>":$strides,
      "ArrayRef<int64_t>":$baseDilations, "ArrayRef<int64_t>":$windowDilations,
      "ArrayRef<std::pair<int64_t, int64_t>>":$padding)>];
  let extraClassDeclaration = [{
    /// The attributes with their defaults filled in (1s, 0 padding).
    SmallVector<int64_t> getStrides();
    SmallVector<int64_t> getBaseDilationsOr1();
    SmallVector<int64_t> getWindowDilationsOr1();
    SmallVector<std::pair<int64_t, int64_t>> getPaddingPairs();
  }];
  let hasVerifier = 1;
}

def Torus_ReduceGeneralOp : Torus_Op<"reduce_general", [HloOpcode<"reduce">,
    RecursiveMemoryEffects, IsolatedFromAbove, SameVariadicOperandSize,
    Torus_VJPNotImplemented,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap"]>]> {
  let summary = "reduce over dimensions with any reducer computation";
  let description = [{
    HLO `reduce` whose reducer is not one `torus.reduce` names by a kind:
    the `inputs` (of one shape) are reduced together over `dimensions`,
    starting from the 0-d `init_values`, by the `body` computation. The
    body takes the accumulators, then the elements, as 0-d tensors,
    `(acc_0, ..., acc_n-1, x_0, ..., x_n-1)`, and returns the new
    accumulators; it holds only elementwise ops and constants on scalars,
    like sort's comparator. Elements are combined in row-major order of the
    reduced dimensions, each into the accumulator (as XLA's CPU backend
    does), so a reducer that is not associative gives XLA's result.
    Examples: JAX's argmax of booleans, a maximum of complex numbers
    (lexicographic), a variadic min with a tie-break.

    ```mlir
    %v, %i = torus.reduce_general(%x, %idx) init(%x0, %i0) dims = [1]
        : (tensor<4x8xi1>, tensor<4x8xi32>, tensor<i1>, tensor<i32>)
        -> (tensor<4xi1>, tensor<4xi32>) {
    ^bb0(%a: tensor<i1>, %ai: tensor<i32>, %b: tensor<i1>, %bi: tensor<i32>):
      %gt = torus.compare GT, %b, %a : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %v = torus.select %gt, %b, %a : tensor<i1>, tensor<i1>
      %i = torus.select %gt, %bi, %ai : tensor<i1>, tensor<i32>
      torus.return %v, %i : tensor<i1>, tensor<i32>
    }
    ```

    Differentiating it is not supported (there is no rule for an arbitrary
    reducer); reductions JAX differentiates import as `torus.reduce`,
    `torus.argmax` or `torus.argmin`.
  }];
  let arguments = (ins Variadic<Torus_Tensor>:$inputs,
                       Variadic<Torus_Tensor>:$init_values,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Variadic<Torus_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` `init` `(` $init_values `)` `dims` `=` $dimensions
    attr-dict `:` functional-type(operands, results) $body
  }];
  let hasVerifier = 1;
}

def Torus_ReduceWindowGeneralOp : Torus_Op<"reduce_window_general",
    [HloOpcode<"reduce-window">, RecursiveMemoryEffects, IsolatedFromAbove,
    SameVariadicOperandSize, Torus_VJPNotImplemented,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap", "getBlockedResultDims"]>]> {
  let summary = "reduce sliding windows with any reducer computation";
  let description = [{
    HLO `reduce-window` whose reducer is not one `torus.reduce_window` names
    by a kind, over one or more inputs of one shape. Windows are placed as
    for `torus.reduce_window` (same attributes and defaults); each input is
    padded, and its base-dilation holes filled, with its own init value.
    Each window is reduced from the `init_values` by the `body`, taking
    `(acc_0, ..., acc_n-1, x_0, ..., x_n-1)` as 0-d tensors and returning
    the new accumulators, the window's elements in row-major order.
    Examples: JAX's cumulative logsumexp and cumulative max of complex
    numbers, XLA's select-and-gather-add (a variadic window over values and
    their tangents).

    ```mlir
    %r = torus.reduce_window_general(%x) init(%c) window = [1, 3]
        {padding = dense<[[0, 0], [2, 0]]> : tensor<2x2xi64>}
        : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32> {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = torus.subtract %a, %b : tensor<f32>
      torus.return %m : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Variadic<Torus_Tensor>:$inputs,
                       Variadic<Torus_Tensor>:$init_values,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$base_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dilations,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Variadic<Torus_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` `init` `(` $init_values `)` `window` `=`
    $window_dimensions attr-dict `:` functional-type(operands, results) $body
  }];
  let extraClassDeclaration = [{
    /// The attributes with their defaults filled in (1s, 0 padding).
    SmallVector<int64_t> getStrides();
    SmallVector<int64_t> getBaseDilationsOr1();
    SmallVector<int64_t> getWindowDilationsOr1();
    SmallVector<std::pair<int64_t, int64_t>> getPaddingPairs();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Sorting and selection (ir/ops/SortOps.cpp)
//===----------------------------------------------------------------------===//

def Torus_SortOp : Torus_Op<"sort", [HloOpcode<"sort">, RecursiveMemoryEffects,
    IsolatedFromAbove, Torus_HasVJP,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap", "getBlockedResultDims"]>]> {
  let summary = "sort tensors together along one dimension";
  let description = [{
    HLO `sort`: the operands (of one shape, any element types) are permuted
    together along `dimension`, each row independently, into the order the
    `comparator` defines. The comparator takes two scalars per operand,
    `(lhs_0, rhs_0, lhs_1, rhs_1, ...)` as `tensor<T>`, and returns a
    `tensor<i1>` that is true when lhs goes before rhs (a strict weak
    order: "less than"). Its body holds only elementwise ops and constants
    on scalars (the HLO computation `to_apply`), so any comparator XLA
    writes (LT/GT, TOTALORDER for floats, JAX's lexicographic multi-key
    comparators) is code. Torus always sorts stably (equal elements keep
    their order), which is what `is_stable` asks for and a valid order
    otherwise.

    ```mlir
    %k, %v = torus.sort(%keys, %vals) dimension = 0 {is_stable = true}
             : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
      %lt = torus.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      torus.return %lt : tensor<i1>
    }
    ```
  }];
  let arguments = (ins Variadic<Torus_Tensor>:$operand, I64Attr:$dimension,
                       DefaultValuedAttr<BoolAttr, "false">:$is_stable);
  let results = (outs Variadic<Torus_Tensor>:$results);
  let regions = (region SizedRegion<1>:$comparator);
  let assemblyFormat = [{
    `(` $operand `)` `dimension` `=` $dimension attr-dict `:`
    functional-type(operands, results) $comparator
  }];
  let hasVerifier = 1;
}

def Torus_TopKOp : Torus_Op<"top_k", [HloOpcode<"topk">, Pure,
    Torus_HasVJP,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap", "getBlockedResultDims"]>]> {
  let summary = "the k largest (or smallest) elements of each row";
  let description = [{
    HLO `topk`: along the last dimension, the `k` largest elements of the
    operand in descending order (the `k` smallest in ascending order when
    `largest` is false) and their indices (`i32`). Floats are ordered as
    XLA's TOTALORDER compare orders them (-NaN < -inf < ... < -0 < +0 < ...
    < inf < NaN); equal elements come in index order.

    ```mlir
    %v, %i = torus.top_k %x, k = 2 : (tensor<5x3xf32>) -> (tensor<5x2xf32>, tensor<5x2xi32>)
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand, I64Attr:$k,
                       DefaultValuedAttr<BoolAttr, "true">:$largest);
  let results = (outs Torus_Tensor:$values, Torus_IntTensor:$indices);
  let assemblyFormat = [{
    $operand `,` `k` `=` $k attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Torus_SelectAndScatterOp : Torus_Op<"select_and_scatter",
    [HloOpcode<"select-and-scatter">, RecursiveMemoryEffects, IsolatedFromAbove,
    Torus_VJPNotImplemented,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap", "getBlockedResultDims"]>]> {
  let summary = "scatter each window's source value to the element it selects";
  let description = [{
    HLO `select-and-scatter` (max pooling's gradient). The operand, padded
    by `padding` (a `[rank, 2]` tensor of low/high pairs), is cut into
    windows of `window_dimensions` every `window_strides` elements, one per
    element of `source`. In each window, `select(a, b)` (true: keep `a`)
    picks one element, going through the window in row-major order and
    starting with its first element that is not padding; so with `GE` the
    first maximum wins. The result starts as `init_value` everywhere, and
    each source element is combined into the selected position with
    `scatter(current, source)`. Both regions take two scalars of the element
    type and hold only elementwise ops and constants; `select` returns a
    `tensor<i1>`, `scatter` a scalar of the element type.

    ```mlir
    %g = torus.select_and_scatter %x, %dy, %zero, window = [2, 2]
         {window_strides = array<i64: 2, 2>}
         : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
    select {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %p = torus.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      torus.return %p : tensor<i1>
    } scatter {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = torus.add %a, %b : tensor<f32>
      torus.return %s : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand, Torus_Tensor:$source,
                       Torus_Tensor:$init_value,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Torus_Tensor:$result);
  let regions = (region SizedRegion<1>:$select, SizedRegion<1>:$scatter);
  let assemblyFormat = [{
    $operand `,` $source `,` $init_value `,` `window` `=` $window_dimensions
    attr-dict `:` functional-type(operands, results)
    `select` $select `scatter` $scatter
  }];
  let extraClassDeclaration = [{
    /// The attributes with their defaults filled in (1s, 0 padding).
    SmallVector<int64_t> getStrides();
    SmallVector<std::pair<int64_t, int64_t>> getPaddingPairs();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

def Torus_DotGeneralOp : Torus_Op<"dot_general", [HloOpcode<"dot">, Pure, Torus_HasVJP,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap"]>]> {
  let summary = "generalized batched matrix product";
  let description = [{
    HLO `dot_general`: contracts `lhs_contracting_dimensions` with
    `rhs_contracting_dimensions` (pairwise equal sizes) and pairs
    `lhs_batching_dimensions` with `rhs_batching_dimensions`. The result's
    dimensions are the batch dimensions, then the remaining lhs dimensions,
    then the remaining rhs dimensions, each in operand order. Both operands
    have the result's element type (accumulation is in that type).

    ```mlir
    %c = torus.dot_general %a, %b, batching_dims = [] x [],
           contracting_dims = [1] x [0]
         : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$lhs, Torus_Tensor:$rhs,
                       DenseI64ArrayAttr:$lhs_batching_dimensions,
                       DenseI64ArrayAttr:$rhs_batching_dimensions,
                       DenseI64ArrayAttr:$lhs_contracting_dimensions,
                       DenseI64ArrayAttr:$rhs_contracting_dimensions);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` `batching_dims` `=` $lhs_batching_dimensions `x`
    $rhs_batching_dimensions `,` `contracting_dims` `=`
    $lhs_contracting_dimensions `x` $rhs_contracting_dimensions attr-dict `:`
    functional-type(operands, results)
  }];
  let builders = [OpBuilder<(ins "Value":$lhs, "Value":$rhs,
      "ArrayRef<int64_t>":$lhsBatch, "ArrayRef<int64_t>":$rhsBatch,
      "ArrayRef<int64_t>":$lhsContracting,
      "ArrayRef<int64_t>":$rhsContracting)>];
  let hasVerifier = 1;
}

def Torus_ConvolutionOp : Torus_Op<"convolution", [HloOpcode<"convolution">, Pure, Torus_HasVJP,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap"]>]> {
  let summary = "N-d convolution with strides, padding, dilation and groups";
  let description = [{
    HLO `convolution` (a cross-correlation: the kernel is not flipped).
    `dimension_numbers` says which dimension of the input (`lhs`), kernel
    (`rhs`) and output is batch, feature and spatial; `[b, 0, 1, f]x[0, 1,
    i, o]->[b, 0, 1, f]` is NHWC input, HWIO kernel, NHWC output.

    Per spatial dimension the input is dilated by `lhs_dilation` (holes of
    zeros between elements: a transposed convolution), padded by `padding`
    (`[spatial_rank, 2]` low/high pairs, may be negative), and the kernel is
    dilated by `rhs_dilation`; the window moves by `window_strides`. Missing
    attributes are 1s and zero padding. Output spatial size:
    `(padded_input - dilated_kernel) / stride + 1`.

    `feature_group_count = G` splits input features into G groups, each
    convolved with `O / G` of the kernel's output features (the kernel's
    input feature dimension is `C / G`; depthwise when G = C).
    `batch_group_count = B` splits the input batch into B groups, each
    producing `O / B` output features (used by gradients of grouped
    convolutions). Both operands have the result's element type.

    ```mlir
    %y = torus.convolution %x, %w, dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]
         {window_strides = array<i64: 2, 2>,
          padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>}
         : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
    ```
  }];
  let arguments = (ins Torus_RealTensor:$lhs, Torus_RealTensor:$rhs,
      Torus_ConvDimensionNumbersAttr:$dimension_numbers,
      OptionalAttr<DenseI64ArrayAttr>:$window_strides,
      OptionalAttr<I64ElementsAttr>:$padding,
      OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
      OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
      DefaultValuedAttr<I64Attr, "1">:$feature_group_count,
      DefaultValuedAttr<I64Attr, "1">:$batch_group_count);
  let results = (outs Torus_RealTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` `dim_numbers` `=`
    custom<ConvDimensionNumbers>($dimension_numbers) attr-dict `:`
    functional-type(operands, results)
  }];
  let builders = [OpBuilder<(ins "Value":$lhs, "Value":$rhs,
      "ConvDimensionNumbersAttr":$dimensionNumbers,
      "ArrayRef<int64_t>":$strides,
      "ArrayRef<std::pair<int64_t, int64_t>>":$padding,
      "ArrayRef<int64_t>":$lhsDilation, "ArrayRef<int64_t>":$rhsDilation,
      "int64_t":$featureGroupCount, "int64_t":$batchGroupCount)>];
  let extraClassDeclaration = [{
    /// The attributes with their defaults filled in (1s, 0 padding), one
    /// entry per spatial dimension.
    SmallVector<int64_t> getStrides();
    SmallVector<int64_t> getLhsDilationOr1();
    SmallVector<int64_t> getRhsDilationOr1();
    SmallVector<std::pair<int64_t, int64_t>> getPaddingPairs();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Linear algebra and Fourier transforms
//===----------------------------------------------------------------------===//

def Torus_TriangularSolveOp : Torus_Op<"triangular_solve",
    [HloOpcode<"triangular-solve">, Pure, Torus_HasVJP,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap", "getBlockedResultDims"]>]> {
  let summary = "solve a triangular system of equations";
  let description = [{
    HLO `triangular-solve`: solves `op(a) x = b` (`left_side`) or
    `x op(a) = b` for `x`, in each batch. `a` is `[..., m, m]`; `b` is
    `[..., m, n]` (left side) or `[..., n, m]`, with `a`'s batch
    dimensions; the result has `b`'s type. Only `a`'s lower (`lower`) or
    upper triangle is read, and with `unit_diagonal` not its diagonal
    either, which is taken as ones. `op(a)` is `a` (`NO_TRANSPOSE`), its
    transpose (`TRANSPOSE`) or its conjugate transpose (`ADJOINT`, the
    transpose for real types).

    Computed by substitution, in the element type (f16 and bf16 in f32,
    rounded once): each `x` element is its `b` element less each known
    term in turn, in the order those were solved, divided by the diagonal.
    A zero on the diagonal gives infinities or NaNs, as in XLA.

    ```mlir
    %x = torus.triangular_solve %a, %b, left_side = true, lower = true,
           unit_diagonal = false, transpose_a = NO_TRANSPOSE
         : (tensor<4x4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
    ```
  }];
  let arguments = (ins Torus_FloatOrComplexTensor:$a,
                       Torus_FloatOrComplexTensor:$b, BoolAttr:$left_side,
                       BoolAttr:$lower, BoolAttr:$unit_diagonal,
                       Torus_TransposeKind:$transpose_a);
  let results = (outs Torus_FloatOrComplexTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` `left_side` `=` $left_side `,` `lower` `=` $lower `,`
    `unit_diagonal` `=` $unit_diagonal `,` `transpose_a` `=` $transpose_a
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Torus_FftOp : Torus_Op<"fft", [HloOpcode<"fft">, Pure, Torus_HasVJP,
    DeclareOpInterfaceMethods<Torus_ShardingRuleOpInterface,
      ["getOperandDimMap", "getBlockedResultDims"]>]> {
  let summary = "discrete Fourier transform over the last dimensions";
  let description = [{
    HLO `fft`: the discrete Fourier transform over the last
    `k = size(fft_length)` dimensions (1 to 3), whose lengths are
    `fft_length`; the other dimensions are batches.

    - `FFT`: complex to complex, `X[f] = sum_t x[t] exp(-2 pi i f t / n)`
      along each transformed dimension.
    - `IFFT`: its inverse, `exp(+2 pi i f t / n)` and divided by `n`.
    - `RFFT`: real (f32, f64) to complex (c64, c128); the last dimension
      keeps the `n / 2 + 1` frequencies that are not redundant.
    - `IRFFT`: the inverse of `RFFT`: the operand's last dimension holds
      `n / 2 + 1` frequencies of a Hermitian-symmetric spectrum (the
      imaginary parts of frequency 0 and, for even `n`, `n / 2` are
      ignored), the result `n` reals.

    Each dimension is transformed in turn as a direct sum of `n` terms
    (O(n^2)) with twiddle factors computed in long double, in f64
    throughout, and rounded to the element type once at the end. XLA:CPU's
    DUCC (Cooley-Tukey, Bluestein) rounds differently, so results agree
    with XLA's to a few ULPs of the largest element, not of every element.

    ```mlir
    %y = torus.fft %x, type = RFFT, length = [8]
         : (tensor<4x8xf32>) -> tensor<4x5xcomplex<f32>>
    ```
  }];
  let arguments = (ins Torus_FloatOrComplexTensor:$operand,
                       Torus_FftType:$fft_type,
                       DenseI64ArrayAttr:$fft_length);
  let results = (outs Torus_FloatOrComplexTensor:$result);
  let assemblyFormat = [{
    $operand `,` `type` `=` $fft_type `,` `length` `=` $fft_length attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Indexing
//===----------------------------------------------------------------------===//

def Torus_GatherOp : Torus_Op<"gather", [HloOpcode<"gather">, Pure, Torus_HasVJP]> {
  let summary = "gather slices at run-time indices";
  let description = [{
    HLO `gather`. `start_indices` holds a batch of start positions: its
    `index_vector_dim` (which may equal its rank, meaning an implicit
    trailing 1) holds one index per entry of `start_index_map`, the operand
    dimension it indexes. For each batch position a `slice_sizes` block of
    the operand is taken at that start (clamped, as in HLO, so the block is
    in bounds); the `collapsed_slice_dims` (of size 1) are dropped from it,
    the remaining block dimensions become the result's `offset_dims`, and
    the other result dimensions are the batch dimensions of `start_indices`
    in order.

    Embedding lookup (`table[ids]`, table `[V, D]`, ids `[N]`):

    ```mlir
    %e = torus.gather %table[%ids], offset_dims = [1], collapsed_slice_dims = [0],
           start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 16]
         : (tensor<1000x16xf32>, tensor<8xi32>) -> tensor<8x16xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand, Torus_IntTensor:$start_indices,
                       DenseI64ArrayAttr:$offset_dims,
                       DenseI64ArrayAttr:$collapsed_slice_dims,
                       DenseI64ArrayAttr:$start_index_map,
                       I64Attr:$index_vector_dim,
                       DenseI64ArrayAttr:$slice_sizes,
                       UnitAttr:$indices_are_sorted);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $operand `[` $start_indices `]` `,` `offset_dims` `=` $offset_dims `,`
    `collapsed_slice_dims` `=` $collapsed_slice_dims `,` `start_index_map` `=`
    $start_index_map `,` `index_vector_dim` `=` $index_vector_dim `,`
    `slice_sizes` `=` $slice_sizes attr-dict `:`
    functional-type(operands, results)
  }];
  let builders = [OpBuilder<(ins "Value":$operand, "Value":$startIndices,
      "ArrayRef<int64_t>":$offsetDims, "ArrayRef<int64_t>":$collapsedSliceDims,
      "ArrayRef<int64_t>":$startIndexMap, "int64_t":$indexVectorDim,
      "ArrayRef<int64_t>":$sliceSizes)>];
  let hasVerifier = 1;
}

def Torus_ScatterOp : Torus_Op<"scatter", [HloOpcode<"scatter">, Pure, Torus_HasVJP,
    AllTypesMatch<["operand", "result"]>]> {
  let summary = "combine updates into a tensor at run-time indices";
  let description = [{
    HLO `scatter` with the update computation named by `kind`: `replace`
    (the update overwrites), `sum`, `product`, `max`, `min`. The indices
    are laid out as for `gather`: `index_vector_dim` of `scatter_indices`
    holds one index per entry of `scatter_dims_to_operand_dims`. Each update
    is a window: its `update_window_dims` are window dimensions, in order,
    of the operand's dimensions other than `inserted_window_dims` (which have
    size 1 in the window); its other dimensions are the batch dimensions of
    `scatter_indices`. As in XLA, a window that would not fit in the operand
    at its start is skipped entirely. Updates are applied in row-major order
    of the updates tensor, so `replace` with repeated indices keeps the last.

    Adding rows of `u` into `x` at row indices `ids` (the gradient of an
    embedding lookup):

    ```mlir
    %r = torus.scatter sum %x[%ids], %u, update_window_dims = [1],
           inserted_window_dims = [0], scatter_dims_to_operand_dims = [0],
           index_vector_dim = 1
         : (tensor<1000x16xf32>, tensor<8xi32>, tensor<8x16xf32>) -> tensor<1000x16xf32>
    ```
  }];
  let arguments = (ins Torus_ScatterKind:$kind, Torus_Tensor:$operand,
                       Torus_IntTensor:$scatter_indices, Torus_Tensor:$updates,
                       DenseI64ArrayAttr:$update_window_dims,
                       DenseI64ArrayAttr:$inserted_window_dims,
                       DenseI64ArrayAttr:$scatter_dims_to_operand_dims,
                       I64Attr:$index_vector_dim,
                       UnitAttr:$indices_are_sorted,
                       UnitAttr:$unique_indices);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $kind $operand `[` $scatter_indices `]` `,` $updates `,`
    `update_window_dims` `=` $update_window_dims `,` `inserted_window_dims` `=`
    $inserted_window_dims `,` `scatter_dims_to_operand_dims` `=`
    $scatter_dims_to_operand_dims `,` `index_vector_dim` `=` $index_vector_dim
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

def Torus_ReturnOp : Torus_Op<"return", [Pure, Terminator,
    ParentOneOf<["WhileOp", "IfOp", "CaseOp", "SortOp",
                "SelectAndScatterOp", "ReduceGeneralOp",
                "ReduceWindowGeneralOp"]>]> {
  let summary = "the values a region of a control-flow op produces";
  let description = [{
    Ends the regions of `torus.while`, `torus.if` and `torus.case`: the
    loop condition (one `tensor<i1>`), the next loop-carried values, or a
    branch's results; and the scalar computations of `torus.sort` and
    `torus.select_and_scatter`. (Functions end in `func.return`.)

    ```mlir
    torus.return %a, %b : tensor<f32>, tensor<4xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, ValueRange{}); }]>];
}

def Torus_WhileOp : Torus_Op<"while", [HloOpcode<"while">, RecursiveMemoryEffects,
    Torus_VJPNotImplemented]> {
  let summary = "loop while a condition holds";
  let description = [{
    HLO `while`: starting from `operand`, runs `body` while `cond` returns
    true, each region taking the loop-carried values as block arguments;
    `cond` returns one `tensor<i1>`, `body` the next values (of the same
    types). The results are the values for which `cond` was false. Regions
    may use values defined above the op (StableHLO style); the HLO exporter
    turns those into tuple elements.

    ```mlir
    %r:2 = torus.while(%i = %zero, %x = %init) : tensor<i32>, tensor<4xf32>
      cond {
        %p = torus.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
        torus.return %p : tensor<i1>
      } do {
        %i1 = torus.add %i, %one : tensor<i32>
        %x1 = torus.multiply %x, %x : tensor<4xf32>
        torus.return %i1, %x1 : tensor<i32>, tensor<4xf32>
      }
    ```
  }];
  let arguments = (ins Variadic<Torus_Tensor>:$operand);
  let results = (outs Variadic<Torus_Tensor>:$results);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Torus_IfOp : Torus_Op<"if", [HloOpcode<"conditional">, RecursiveMemoryEffects,
    Torus_VJPNotImplemented]> {
  let summary = "two-way conditional";
  let description = [{
    Runs `true_branch` if `pred` is true, else `false_branch`; the results
    are what the branch returns (both return the same types). HLO
    `conditional` with a `pred` selector. Branches take no arguments and may
    use values defined above.

    ```mlir
    %r = torus.if %p -> (tensor<4xf32>) {
      torus.return %a : tensor<4xf32>
    } else {
      %n = torus.negate %a : tensor<4xf32>
      torus.return %n : tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Torus_PredScalar:$pred);
  let results = (outs Variadic<Torus_Tensor>:$results);
  let regions = (region SizedRegion<1>:$true_branch,
                        SizedRegion<1>:$false_branch);
  let assemblyFormat = [{
    $pred (`->` `(` type($results)^ `)`)? $true_branch `else` $false_branch
    attr-dict
  }];
  let hasVerifier = 1;
}

def Torus_CaseOp : Torus_Op<"case", [HloOpcode<"conditional">, RecursiveMemoryEffects,
    Torus_VJPNotImplemented]> {
  let summary = "n-way conditional";
  let description = [{
    HLO `conditional` with an index selector (StableHLO `case`): runs branch
    `index`, or the last branch if `index` is out of range; the results are
    what that branch returns (all branches return the same types). Branches
    take no arguments and may use values defined above.

    ```mlir
    %r = torus.case %i -> (tensor<f32>) {
      torus.return %a : tensor<f32>
    }, {
      torus.return %b : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Torus_I32Scalar:$index);
  let results = (outs Variadic<Torus_Tensor>:$results);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let assemblyFormat = [{
    $index (`->` `(` type($results)^ `)`)? $branches attr-dict
  }];
  let hasVerifier = 1;
}

def Torus_CallOp : Torus_Op<"call", [HloOpcode<"call">, CallOpInterface, Torus_VJPNotImplemented,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "call a function of the module";
  let description = [{
    HLO `call`: runs the `func.func` named `callee` on `operands` and
    yields its results. Callees are usually private functions of the module;
    the tracer makes one for each distinct traced sub-function.

    ```mlir
    %r = torus.call @layer(%x, %w) : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
  let extraClassDeclaration = [{
    operand_range getArgOperands() { return getOperands(); }
    MutableOperandRange getArgOperandsMutable() { return getOperandsMutable(); }
    CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(CallInterfaceCallable callee) {
      (*this)->setAttr("callee", callee.get<SymbolRefAttr>());
    }
  }];
}

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

def Torus_RngBitGeneratorOp : Torus_Op<"rng_bit_generator", [HloOpcode<"rng-bit-generator">, Pure, Torus_NoGradient]> {
  let summary = "counter-based random bits";
  let description = [{
    HLO `rng-bit-generator`: from `initial_state` (`tensor<2xi64>`, read as
    a 64-bit key and a 64-bit counter; `tensor<3xi64>` for PHILOX and
    DEFAULT, a 128-bit counter) produces `output`, a tensor of uniformly
    random bits (any integer type; HLO uses `u8`..`u64`), and `output_state`,
    the state to use next (same key, counter advanced past every block
    used). The bits and the new state are XLA's (its CPU and GPU expansion,
    `rng_bit_generator_expander` over `hlo/builder/lib/prng.cc`), all
    positions row-major:

    - `THREE_FRY`: Threefry-2x32 with 20 rounds (Salmon et al., Random123)
      keyed by the key (low word first), on 64-bit blocks `counter + n`
      (low word first). Elements of up to 32 bits: the output is halved
      along its first even dimension (or else its first largest one);
      the element at index `j` of that dimension is word `j % 2` of the
      block whose `n` is the position with `j / 2` there in the halved
      shape; 8- and 16-bit elements keep the word's low bits. The counter
      advances by the halved shape's size. 64-bit element `i`: block
      `counter + i`, word 0 in the low half; the counter advances by the
      element count.
    - `PHILOX`, and `DEFAULT` (which XLA's CPU and GPU compilers make
      `PHILOX`): Philox-4x32 with 10 rounds keyed by the key, on a 128-bit
      counter whose low half is `state[1]` and high half `state[2]`, or the
      key for a 2-element state. Element `i` of up to 32 bits is word
      `i % 4` (its low bits if narrower) of block `counter + i / 4`; 64-bit
      element `i` is words 0 and 1, or 2 and 3 (the first low), of block
      `counter + i / 2`. The counter advances by the blocks used (with the
      carry); a 2-element state keeps only its low half.

    ```mlir
    %state1, %bits = torus.rng_bit_generator THREE_FRY %state
        : (tensor<2xi64>) -> (tensor<2xi64>, tensor<4x4xi32>)
    ```
  }];
  let arguments = (ins Torus_RngAlgorithm:$rng_algorithm,
                       StaticShapeTensorOf<[I64, UI64]>:$initial_state);
  let results = (outs StaticShapeTensorOf<[I64, UI64]>:$output_state,
                      Torus_IntTensor:$output);
  let assemblyFormat = [{
    $rng_algorithm $initial_state attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Replicas, partitions and collectives
//===----------------------------------------------------------------------===//

def Torus_ReplicaIdOp : Torus_Op<"replica_id", [HloOpcode<"replica-id">, Torus_NoGradient]> {
  let summary = "the executing replica's index";
  let description = [{
    The index of the replica running this program, in `[0, replica_count)`
    (HLO `replica-id`: a `u32` scalar when imported from HLO, `i32` from the
    tracer).

    ```mlir
    %id = torus.replica_id : tensor<i32>
    ```
  }];
  let results = (outs Torus_IdScalar:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Torus_PartitionIdOp : Torus_Op<"partition_id", [HloOpcode<"partition-id">, Torus_NoGradient]> {
  let summary = "the executing partition's index";
  let description = [{
    The index of the partition (logical device within a replica) running
    this program, in `[0, num_partitions)` (HLO `partition-id`: a `u32`
    scalar when imported from HLO, `i32` from the tracer and the
    partitioner). SPMD-partitioned programs use it to find their shard.

    ```mlir
    %p = torus.partition_id : tensor<i32>
    ```
  }];
  let results = (outs Torus_IdScalar:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

class Torus_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : Torus_Op<mnemonic, traits # [Torus_HasVJP,
                                   HloOpcode<!subst("_", "-", mnemonic)>]> {
  let hasVerifier = 1;
}

def Torus_AllReduceOp : Torus_CollectiveOp<"all_reduce",
    [SameOperandsAndResultType, Torus_ShardingRuleOpInterface]> {
  let summary = "reduce a tensor across replicas";
  let description = [{
    Every replica contributes `operand`; each receives the elementwise
    reduction (by `kind`: `sum`, `product`, `max` or `min`) over the
    replicas of its group (HLO `all-reduce`). `replica_groups` is a 2-D
    `i64` tensor whose rows are the groups; absent or empty, all replicas
    form one group. Groups must not overlap. `i1` operands are rejected.

    ```mlir
    %s = torus.all_reduce sum %g {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<8xf32>
    ```
  }];
  let arguments = (ins Torus_ReduceKind:$kind, Torus_Tensor:$operand,
                       OptionalAttr<I64ElementsAttr>:$replica_groups);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = "$kind $operand attr-dict `:` type($result)";
}

def Torus_AllGatherOp : Torus_CollectiveOp<"all_gather"> {
  let summary = "concatenate every replica's tensor";
  let description = [{
    HLO `all-gather`: each replica receives the operands of all replicas of
    its group, concatenated in group order along `all_gather_dim`, which
    therefore grows by the group size. `replica_groups` as for
    `all_reduce`; without groups the result fixes the group size, and the
    compiler checks that it equals the replica count.

    ```mlir
    %g = torus.all_gather %x, all_gather_dim = 0 : (tensor<2x4xf32>) -> tensor<8x4xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand, I64Attr:$all_gather_dim,
                       OptionalAttr<I64ElementsAttr>:$replica_groups);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `all_gather_dim` `=` $all_gather_dim attr-dict `:`
    functional-type(operands, results)
  }];
}

def Torus_ReduceScatterOp : Torus_CollectiveOp<"reduce_scatter"> {
  let summary = "reduce across replicas, each keeping one block";
  let description = [{
    HLO `reduce-scatter`: the operands of a group are reduced elementwise
    by `kind` (`sum`, `product`, `max`, `min`), the result is split along
    `scatter_dimension` into as many equal blocks as the group has members,
    and the member at position `k` of its group receives block `k`.
    `replica_groups` as for `all_reduce`; without groups the result fixes
    the group size, which the compiler checks against the replica count.

    ```mlir
    %s = torus.reduce_scatter sum %x, scatter_dimension = 0 : (tensor<8x4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Torus_ReduceKind:$kind, Torus_Tensor:$operand,
                       I64Attr:$scatter_dimension,
                       OptionalAttr<I64ElementsAttr>:$replica_groups);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $kind $operand `,` `scatter_dimension` `=` $scatter_dimension attr-dict
    `:` functional-type(operands, results)
  }];
}

def Torus_AllToAllOp : Torus_CollectiveOp<"all_to_all"> {
  let summary = "exchange blocks between all replicas of a group";
  let description = [{
    HLO `all-to-all`: each replica splits its operand along
    `split_dimension` into `split_count` blocks and sends block `k` to the
    `k`-th member of its group; the received blocks are concatenated in
    group order along `concat_dimension`. `split_count` equals the group
    size. `replica_groups` as for `all_reduce`.

    ```mlir
    %r = torus.all_to_all %x, split_dimension = 0, concat_dimension = 1, split_count = 4
         : (tensor<8x2xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand, I64Attr:$split_dimension,
                       I64Attr:$concat_dimension, I64Attr:$split_count,
                       OptionalAttr<I64ElementsAttr>:$replica_groups);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `split_dimension` `=` $split_dimension `,`
    `concat_dimension` `=` $concat_dimension `,` `split_count` `=`
    $split_count attr-dict `:` functional-type(operands, results)
  }];
}

def Torus_CollectivePermuteOp : Torus_CollectiveOp<"collective_permute",
    [SameOperandsAndResultType, Torus_ShardingRuleOpInterface]> {
  let summary = "send a tensor along replica pairs";
  let description = [{
    HLO `collective-permute`: for each `[source, target]` row of
    `source_target_pairs` (an `[n, 2]` `i64` tensor), replica `target`
    receives `source`'s operand. No replica is a source twice or a target
    twice; a replica that is no target receives zeros.

    ```mlir
    %r = torus.collective_permute %x, source_target_pairs = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64> : tensor<4xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand,
                       I64ElementsAttr:$source_target_pairs);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `source_target_pairs` `=` $source_target_pairs attr-dict `:`
    type($result)
  }];
}

include "ir/Sharding.td"

#endif // TORUS_OPS_TD
