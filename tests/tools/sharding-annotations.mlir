// torus.sharding annotations are parsed and checked whatever the partition
// count: with one partition the sharding passes do not run, and garbage
// there used to be accepted with exit 0.
// RUN: split-file %s %t
// RUN: not torusc %t/garbage.mlir -o /dev/null 2>&1 | FileCheck %t/garbage.mlir
// RUN: torusc %t/garbage.mlir -o /dev/null; test $? -eq 1
// RUN: not torusc %t/negative.mlir -o /dev/null 2>&1 | FileCheck %t/negative.mlir
// RUN: not torusc %t/rank.mlir -o /dev/null 2>&1 | FileCheck %t/rank.mlir
// RUN: not torusc %t/result.mlir -o /dev/null 2>&1 | FileCheck %t/result.mlir
// RUN: not torusc %t/op.mlir -o /dev/null 2>&1 | FileCheck %t/op.mlir
// RUN: not torus-run %t/garbage.mlir 2>&1 | FileCheck %t/garbage.mlir
// RUN: torusc %t/good.mlir --emit=torus | FileCheck %t/good.mlir

//--- garbage.mlir
func.func @f(%a: tensor<4xf32> {torus.sharding = "{{{{"}) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
// CHECK: garbage.mlir:1:1: error: argument 0: bad sharding '{{[{][{][{][{]}}': expected 'replicated', 'maximal', 'devices' or 'manual'

//--- negative.mlir
func.func @f(%a: tensor<4x4xf32> {torus.sharding = "{devices=[-1,2]0,1}"}) -> tensor<4x4xf32> {
  return %a : tensor<4x4xf32>
}
// CHECK: negative.mlir:1:1: error: argument 0: bad sharding '{devices=[-1,2]0,1}'

//--- rank.mlir
func.func @f(%a: tensor<4x4xf32> {torus.sharding = "{devices=[2]0,1}"}) -> tensor<4x4xf32> {
  return %a : tensor<4x4xf32>
}
// CHECK: rank.mlir:1:1: error: argument 0: sharding {devices=[2]{{.*}} has 1 tile dimension but the tensor [4,4] has rank 2

//--- result.mlir
func.func @f(%a: tensor<4xf32>) -> (tensor<4xf32> {torus.sharding = "{maximal device=x}"}) {
  return %a : tensor<4xf32>
}
// CHECK: result.mlir:1:1: error: result 0: bad sharding '{maximal device=x}'

//--- op.mlir
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = torus.negate %a {torus.sharding = "{devices=[2]0,0}"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}
// CHECK: op.mlir:2:8: error: 'torus.negate' op bad sharding '{devices=[2]0,0}': device 0 appears twice in the tile assignment

//--- good.mlir
func.func @f(%a: tensor<4xf32> {torus.sharding = "{devices=[2]0,1}"}) -> (tensor<4xf32> {torus.sharding = "{replicated}"}) {
  return %a : tensor<4xf32>
}
// CHECK: func.func @f
