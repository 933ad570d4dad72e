// Tests the export of while, if, case and call: regions become
// computations, values they use from above become extra tuple elements of
// the loop state or the branch operand, called functions computations of
// their own. The text reads back and writes out the same.
// RUN: torusc %s --emit=hlo -o %t.hlo
// RUN: FileCheck %s --input-file=%t.hlo
// RUN: torusc %t.hlo --emit=hlo | diff %t.hlo -
// RUN: torusc %t.hlo --emit=torus | FileCheck %s --check-prefix=TORUS

// Callees come before their callers: the loop's condition, the function
// its body calls, the body.
// CHECK-LABEL: %while_cond.{{[0-9]+}} (parameter.{{[0-9]+}}: (s32[], f32[4], s32[], s32[])) -> pred[] {
// CHECK: ROOT %compare.{{[0-9]+}} = pred[] compare(s32[] %get-tuple-element.{{[0-9]+}}, s32[] %get-tuple-element.{{[0-9]+}}), direction=LT
// CHECK-LABEL: %square (Arg_0: f32[4]) -> f32[4] {
// CHECK-NEXT: %Arg_0 = f32[4]{0} parameter(0)
// CHECK-NEXT: ROOT %multiply.{{[0-9]+}} = f32[4]{0} multiply(f32[4]{0} %Arg_0, f32[4]{0} %Arg_0)
// CHECK-LABEL: %while_body.{{[0-9]+}} (parameter.{{[0-9]+}}: (s32[], f32[4], s32[], s32[])) -> (s32[], f32[4], s32[], s32[]) {
// CHECK: call(f32[4]{0} %get-tuple-element.{{[0-9]+}}), to_apply=%square
// CHECK: ROOT %tuple.{{[0-9]+}} = (s32[], f32[4]{0}, s32[], s32[]) tuple(
// CHECK-LABEL: %true_branch.{{[0-9]+}} (parameter.{{[0-9]+}}: (f32[4])) -> f32[4] {
// CHECK: ROOT %get-tuple-element
// CHECK-LABEL: %false_branch.{{[0-9]+}} (parameter.{{[0-9]+}}: (f32[4])) -> f32[4] {
// CHECK: ROOT %negate
// CHECK-LABEL: %branch.{{[0-9]+}} (parameter.{{[0-9]+}}: (f32[4])) -> (f32[4], s32[]) {
// CHECK-LABEL: %branch.{{[0-9]+}} (parameter.{{[0-9]+}}: (f32[4], s32[])) -> (f32[4], s32[]) {

// CHECK-LABEL: ENTRY %control_flow
func.func @control_flow(%x: tensor<4xf32>, %n: tensor<i32>, %p: tensor<i1>) -> (tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>) {
  %zero = torus.constant dense<0> : tensor<i32>
  %one = torus.constant dense<1> : tensor<i32>
  // %n (used by the condition) and %one (by the body) ride in the loop
  // state.
  // CHECK: %[[INIT:tuple.[0-9]+]] = (s32[], f32[4]{0}, s32[], s32[]) tuple(s32[] %constant.{{[0-9]+}}, f32[4]{0} %x, s32[] %n, s32[] %constant.{{[0-9]+}})
  // CHECK-NEXT: %[[LOOP:while.[0-9]+]] = (s32[], f32[4]{0}, s32[], s32[]) while((s32[], f32[4]{0}, s32[], s32[]) %[[INIT]]), condition=%while_cond.{{[0-9]+}}, body=%while_body.{{[0-9]+}}
  // CHECK-NEXT: get-tuple-element((s32[], f32[4]{0}, s32[], s32[]) %[[LOOP]]), index=0
  // CHECK-NEXT: get-tuple-element((s32[], f32[4]{0}, s32[], s32[]) %[[LOOP]]), index=1
  // TORUS: torus.while(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : tensor<i32>, tensor<4xf32>, tensor<i32>, tensor<i32>
  // TORUS: torus.call @square
  %r:2 = torus.while(%i = %zero, %v = %x) : tensor<i32>, tensor<4xf32>
    cond {
      %c = torus.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      torus.return %c : tensor<i1>
    } do {
      %i1 = torus.add %i, %one : tensor<i32>
      %v1 = torus.call @square(%v) : (tensor<4xf32>) -> tensor<4xf32>
      torus.return %i1, %v1 : tensor<i32>, tensor<4xf32>
    }
  // CHECK: f32[4]{0} conditional(pred[] %p, (f32[4]{0}) %tuple.{{[0-9]+}}, (f32[4]{0}) %tuple.{{[0-9]+}}), true_computation=%true_branch.{{[0-9]+}}, false_computation=%false_branch.{{[0-9]+}}
  // TORUS: torus.if %{{.*}} -> (tensor<4xf32>) {
  // TORUS: } else {
  // TORUS: torus.negate
  %f = torus.if %p -> (tensor<4xf32>) {
    torus.return %x : tensor<4xf32>
  } else {
    %neg = torus.negate %x : tensor<4xf32>
    torus.return %neg : tensor<4xf32>
  }
  // CHECK: (f32[4]{0}, s32[]) conditional(s32[] %n, (f32[4]{0}) %tuple.{{[0-9]+}}, (f32[4]{0}, s32[]) %tuple.{{[0-9]+}}), branch_computations={%branch.{{[0-9]+}}, %branch.{{[0-9]+}}}
  // TORUS: torus.case %{{.*}} -> (tensor<4xf32>, tensor<i32>) {
  // TORUS: }, {
  // TORUS: torus.exp
  %g:2 = torus.case %n -> (tensor<4xf32>, tensor<i32>) {
    %c7 = torus.constant dense<7> : tensor<i32>
    torus.return %x, %c7 : tensor<4xf32>, tensor<i32>
  }, {
    %e = torus.exp %x : tensor<4xf32>
    torus.return %e, %n : tensor<4xf32>, tensor<i32>
  }
  return %r#0, %r#1, %f, %g#0, %g#1 : tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>
}

func.func private @square(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = torus.multiply %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
