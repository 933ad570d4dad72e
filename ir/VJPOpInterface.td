//===- VJPOpInterface.td - Each op's gradient rule ----------*- tablegen -*-===//
//
// Reverse-mode autodiff (passes/Autodiff.cpp) asks every op on the path from
// the inputs to the output for its vector-Jacobian product through this
// interface. An op either implements it or says, with `Torus_NoGradient`,
// that it has no gradient (or, with `Torus_VJPNotImplemented`, that its rule
// is still missing); ir/OpInterfacesTest.cpp fails for an op that does none
// of these.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_VJPOPINTERFACE_TD
#define TORUS_VJPOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def Torus_VJPOpInterface : OpInterface<"VJPOpInterface"> {
  let cppNamespace = "::mlir::torus";
  let description = [{
    The op's vector-Jacobian product: given the cotangents of its results,
    emit (with a `GradBuilder`, at its insertion point) the cotangents of its
    operands. Conventions follow JAX where a choice exists (ties of
    `maximum` or `reduce max` share the cotangent equally, piecewise-constant
    ops have zero gradient); docs/autodiff.md lists them.

    Elementwise ops of the `Torus_UnaryOp`/`Torus_BinaryOp` classes write
    their rule in their ODS `def` (`let vjp = ...`, see `Torus_VJPInODS`);
    the others implement `buildVJP` in C++ beside the op
    (ir/ops/<Family>VJPs.cpp).
  }];
  let methods = [
    InterfaceMethod<[{
        Emits the operands' cotangents. `resultCotangents` has one entry per
        result; a float result nothing depends on gets zeros. On entry
        `operandCotangents` holds one null value per operand: set the entry
        of each operand that has a gradient and leave the others null
        (integers, predicates, indices). Fails, with a diagnostic on the op,
        for a case the rule does not cover (a reduction kind, negative
        padding, ...).
      }],
      "::llvm::LogicalResult", "buildVJP",
      (ins "::mlir::torus::GradBuilder &":$gb,
           "::llvm::ArrayRef<::mlir::Value>":$resultCotangents,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandCotangents)>
  ];
}

// The op implements Torus_VJPOpInterface: its class declares buildVJP, which
// the op defines in C++ (ir/ops/<Family>VJPs.cpp) or in ODS (`let vjp`).
def Torus_HasVJP : DeclareOpInterfaceMethods<Torus_VJPOpInterface>;

// The op has no gradient with respect to any operand (comparisons, integer
// and bitwise ops, indices, random bits, constants): autodiff passes no
// cotangent through it. Exclusive with Torus_VJPOpInterface.
def Torus_NoGradient : NativeOpTrait<"NoGradient"> {
  let cppNamespace = "::mlir::torus";
}

// The op is differentiable but has no rule yet (control flow, calls,
// sharding constraints): autodiff fails at it, naming it. This marks a known
// gap where the op is defined, so that ir/OpInterfacesTest.cpp can tell it
// from an op whose rule was forgotten.
def Torus_VJPNotImplemented : NativeOpTrait<"VJPNotImplemented"> {
  let cppNamespace = "::mlir::torus";
}

// For op classes whose defs write their rule in ODS. A def sets one of:
//   let vjp = [{ ... }];   C++ statements, the body of buildVJP, reading
//                          `ct` (the cotangent of result 0), the op's own
//                          accessors (getLhs(), getResult(), ...) and `gb`,
//                          and calling `set(i, value)` for operand i's
//                          cotangent; the rule then succeeds.
//   let noGradient = 1;    the op has no gradient (Torus_NoGradient).
// The class adds `vjpTraits` to its traits and `vjpDefinition` to its
// extraClassDefinition.
class Torus_VJPInODS {
  code vjp = "";
  bit noGradient = 0;
  assert !or(!empty(vjp), !not(noGradient)),
         "an op with a `vjp` rule cannot also set `noGradient`";
  list<Trait> vjpTraits = !if(!empty(vjp), [], [Torus_HasVJP])
                        # !if(noGradient, [Torus_NoGradient], []);
  code vjpDefinition = !if(!empty(vjp), "", [{
    ::llvm::LogicalResult $cppClass::buildVJP(
        ::mlir::torus::GradBuilder &gb,
        ::llvm::ArrayRef<::mlir::Value> resultCotangents,
        ::llvm::SmallVectorImpl<::mlir::Value> &operandCotangents) {
      ::mlir::Value ct = resultCotangents.front();
      auto set = [&](unsigned i, ::mlir::Value v) { operandCotangents[i] = v; };
      (void)ct;
  }] # vjp # [{
      return ::mlir::success();
    }
  }]);
}

#endif // TORUS_VJPOPINTERFACE_TD
