//===- ScalarOpInterface.td - An op's value on one element --*- tablegen -*-===//
//
// What an elementwise op computes on one element, declared on the op: code
// generation builds every elementwise loop body from it, so an op's
// semantics are written once, next to its definition.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_SCALAR_OP_INTERFACE_TD
#define TORUS_SCALAR_OP_INTERFACE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/Interfaces.td"

def Torus_ScalarOpInterface : OpInterface<"ScalarOpInterface"> {
  let cppNamespace = "::mlir::torus";
  let description = [{
    An elementwise op whose value on one element is a few `arith`/`math`
    ops. `buildScalar(b, loc, x)` emits them at `b`'s insertion point for
    one element `x[i]` of each operand and returns the result element.
    Unless `widensHalfFloats()` is false, `f16` and `bf16` operands arrive
    as `f32` and the result is rounded back to the op's element type, as
    XLA's CPU backend computes them; an op that widens must not depend on
    the narrow type. The helpers in `ir/ops/ScalarMath.h` (accurate
    `expm1`, `log1p`, `tanh`, `atan2`, HLO's integer division and
    conversions) are available to the body.

    Declare it with the `ScalarBody` trait; the body sees `b`, `loc`, `x`
    (the operand elements) and `*this`:

    ```tablegen
    def Torus_ExpOp : Torus_UnaryOp<..., traits = [
        ScalarBody<"return b.create<math::ExpOp>(loc, x[0]);">]>;
    ```

    `torus-to-linalg` lowers every op with this interface to a parallel
    `linalg.generic` whose body is `buildScalar`.
  }];
  let methods = [
    InterfaceMethod<"Emits the op's value on one element of each operand.",
      "::mlir::Value", "buildScalar",
      (ins "::mlir::OpBuilder &":$b, "::mlir::Location":$loc,
           "::mlir::ValueRange":$x)>,
    StaticInterfaceMethod<[{
        Whether f16/bf16 operands are computed in f32 (true for all but
        conversions, which see the exact types).
      }], "bool", "widensHalfFloats", (ins), "", [{ return true; }]>,
  ];
}

// Carries the body into the op class.
class Torus_ScalarBodyDefinition<code body, bit widen>
    : NativeOpTrait<"ScalarBodyTrait", [],
        !if(widen, "", "static bool widensHalfFloats() { return false; }"),
        "::mlir::Value $cppClass::buildScalar(::mlir::OpBuilder &b, "
        "::mlir::Location loc, ::mlir::ValueRange x) {\n"
        "  using namespace ::mlir::torus::scalar;\n" # body # "\n}"> {
  let cppNamespace = "::mlir::torus";
}

/// The op computes `body` on each element (see ScalarOpInterface).
class ScalarBody<code body, bit widen = 1>
    : TraitList<[DeclareOpInterfaceMethods<Torus_ScalarOpInterface,
                                           ["buildScalar"]>,
                 Torus_ScalarBodyDefinition<body, widen>]>;

// Folds a float op by computing `fn` (a function of a double, or a lambda
// without captures) in double and
// rounding to the element type.
class FoldsViaDouble<string fn>
    : NativeOpTrait<"FoldsViaDoubleTrait", [], "",
        "::mlir::OpFoldResult $cppClass::fold(FoldAdaptor adaptor) {\n"
        "  return foldUnaryViaDouble(adaptor.getOperands(), getType(), "
        "static_cast<double (*)(double)>(" # fn # "));\n}"> {
  let cppNamespace = "::mlir::torus";
}

// For op classes whose defs write what they compute in ODS. A def sets:
//   let scalarBody = [{ ... }];   the body of buildScalar (ScalarBody);
//   let foldsViaDouble = "fn";     optionally, folds by `fn` in double
//                                  (FoldsViaDouble); otherwise the op's
//                                  fold is in ir/ops/ElementwiseOps.cpp.
// The class adds `scalarTraits` to its traits.
class Torus_ScalarInODS {
  code scalarBody = "";
  string foldsViaDouble = "";
  list<Trait> scalarTraits =
      !if(!empty(scalarBody), [], [ScalarBody<scalarBody>])
      # !if(!empty(foldsViaDouble), [], [FoldsViaDouble<foldsViaDouble>]);
}

#endif // TORUS_SCALAR_OP_INTERFACE_TD
