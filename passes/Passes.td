//===- Passes.td - Graph-level passes of the torus dialect -*- tablegen -*-===//
#ifndef TORUS_PASSES_PASSES_TD
#define TORUS_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def TorusValueAndGrad : Pass<"torus-value-and-grad", "ModuleOp"> {
  let summary = "Add a function computing a loss and its gradients";
  let description = [{
    For every public function that returns one floating-point scalar (a
    loss), adds `@<name>_value_and_grad`, which returns the loss followed by
    its gradient with respect to each floating-point argument, by reverse
    mode over the function's own ops (passes/Autodiff.cpp). Integer
    arguments (labels, indices) get no gradient.

    Before:
    ```mlir
    func.func @loss(%w: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<f32> {
      %0 = torus.multiply %w, %x : tensor<3xf32>
      %1 = torus.reduce sum %0, dims = [0] : (tensor<3xf32>) -> tensor<f32>
      return %1 : tensor<f32>
    }
    ```
    After (the original stays):
    ```mlir
    func.func @loss_value_and_grad(%w: tensor<3xf32>, %x: tensor<3xf32>)
        -> (tensor<f32>, tensor<3xf32>, tensor<3xf32>) {
      %0 = torus.multiply %w, %x : tensor<3xf32>
      %1 = torus.reduce sum %0, dims = [0] : (tensor<3xf32>) -> tensor<f32>
      %one = torus.constant dense<1.0> : tensor<f32>
      %2 = torus.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %dw = torus.multiply %2, %x : tensor<3xf32>
      %dx = torus.multiply %2, %w : tensor<3xf32>
      return %1, %dw, %dx : tensor<f32>, tensor<3xf32>, tensor<3xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::torus::TorusDialect"];
}

//===----------------------------------------------------------------------===//
// Sharding and SPMD partitioning (docs/sharding.md)
//===----------------------------------------------------------------------===//

def TorusShardingPropagation
    : Pass<"torus-sharding-propagation", "ModuleOp"> {
  let summary = "Give every value a sharding, from the user's annotations";
  let description = [{
    GSPMD-style propagation (passes/ShardingPropagation.cpp). Starts from
    `torus.sharding_constraint` ops and `torus.sharding` attributes on
    arguments, results and ops (the user's annotations, never changed) and
    spreads them forward (operands to results) and backward (results to
    operands) through elementwise ops, broadcasts, reshapes that keep the
    tiled dimensions, transposes, `dot_general` (batch, contracting and free
    dimensions), reductions, convolutions (batch, feature and spatial
    dimensions), slices, pads, concatenates and control flow, to a fixed
    point. Conflicts: the first sharding a value gets stays (each round is a
    forward sweep in program order, then a backward sweep in reverse order);
    among an op's operands the one with the most tiles wins. Values nothing
    reaches are replicated. Every propagated sharding records its origin in
    `torus.sharding_origin`. `torus.call`s are inlined first. With one
    partition the pass only inlines.

    Before (2 partitions):
    ```mlir
    func.func @f(%x: tensor<8x16xf32>,
                 %w: tensor<16x32xf32> {torus.sharding = #torus.sharding<{devices=[1,2]0,1}>})
        -> tensor<8x32xf32> {
      %0 = torus.dot_general %x, %w, batching_dims = [] x [], contracting_dims = [1] x [0]
           : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
      %1 = torus.tanh %0 : tensor<8x32xf32>
      return %1 : tensor<8x32xf32>
    }
    ```
    After:
    ```mlir
    func.func @f(%x: tensor<8x16xf32> {torus.sharding = #torus.sharding<{replicated}>,
                                        torus.sharding_origin = "backward through torus.dot_general at f.mlir:4:12 from the annotation on argument 1 of @f"},
                 %w: tensor<16x32xf32> {torus.sharding = #torus.sharding<"{devices=[1,2]<=[2]}">})
        -> (tensor<8x32xf32> {torus.sharding = #torus.sharding<"{devices=[1,2]<=[2]}">}) {
      %0 = torus.dot_general %x, %w, ... {torus.sharding = #torus.sharding<"{devices=[1,2]<=[2]}">,
             torus.sharding_origin = "forward through torus.dot_general at f.mlir:4:12 from the annotation on argument 1 of @f"} ...
      %1 = torus.tanh %0 {torus.sharding = #torus.sharding<"{devices=[1,2]<=[2]}">, ...} : tensor<8x32xf32>
      return %1 : tensor<8x32xf32>
    }
    ```
  }];
  let options = [
    Option<"numPartitionsOpt", "num-partitions", "int64_t", /*default=*/"0",
           "Logical devices per replica (0: the module's "
           "torus.num_partitions, else 1)">,
  ];
  let dependentDialects = ["::mlir::torus::TorusDialect"];
}

def TorusSpmdPartition : Pass<"torus-spmd-partition", "ModuleOp"> {
  let summary = "Rewrite a sharded program into one SPMD program per device";
  let description = [{
    The SPMD partitioner (passes/SpmdPartitioner.cpp). Every value takes the
    local shape its sharding gives it (tiles; uneven tiles are padded) and
    every op computes on local data; the program tells its devices apart
    with `torus.partition_id` only, so it is the same program for every
    partition and its size does not grow with their number. Where an op
    needs its operands laid out differently from how they are, the
    partitioner inserts exactly the collectives the data movement needs:
    maximal → replicated (an `all_reduce` of the owner's value),
    tiled → replicated (`all_gather`), one tiling → another (`all_to_all`),
    replicated → tiled (a local `dynamic_slice`), partial sums of a split
    contracting or reduced dimension (`all_reduce`, or `reduce_scatter`
    when the result is tiled), spatially split convolutions (halo exchange
    with `collective_permute`). Collectives among partitions name devices
    by their flattened id `replica * num_partitions + partition`, as the
    runtime does; the user's own collectives across replicas are rewritten
    to that form (each partition with the same partition of the other
    replicas). Needs `--torus-sharding-propagation` first.

    Before (2 partitions, after propagation):
    ```mlir
    func.func @f(%h: tensor<8x32xf32> {torus.sharding = #torus.sharding<{devices=[1,2]0,1}>},
                 %w: tensor<32x4xf32> {torus.sharding = #torus.sharding<{devices=[2,1]0,1}>})
        -> (tensor<8x4xf32> {torus.sharding = #torus.sharding<{replicated}>}) {
      %0 = torus.dot_general %h, %w, batching_dims = [] x [], contracting_dims = [1] x [0]
           {torus.sharding = #torus.sharding<{replicated}>}
           : (tensor<8x32xf32>, tensor<32x4xf32>) -> tensor<8x4xf32>
      return %0 : tensor<8x4xf32>
    }
    ```
    After:
    ```mlir
    func.func @f(%h: tensor<8x16xf32> {...}, %w: tensor<16x4xf32> {...}) -> (tensor<8x4xf32> {...}) {
      %0 = torus.dot_general %h, %w, batching_dims = [] x [], contracting_dims = [1] x [0]
           : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
      %1 = torus.all_reduce sum %0 {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : tensor<8x4xf32>
      return %1 : tensor<8x4xf32>
    }
    ```
  }];
  let options = [
    Option<"numPartitionsOpt", "num-partitions", "int64_t", /*default=*/"0",
           "Logical devices per replica (0: the module's "
           "torus.num_partitions, else 1)">,
    Option<"numReplicasOpt", "num-replicas", "int64_t", /*default=*/"0",
           "Replicas (0: the module's torus.num_replicas, else 1)">,
  ];
  let dependentDialects = ["::mlir::torus::TorusDialect"];
}

def TorusRemoveRedundantReshards
    : Pass<"torus-remove-redundant-reshards", "ModuleOp"> {
  let summary = "Remove resharding that undoes itself";
  let description = [{
    After partitioning: an `all_gather` whose result is only sliced back to
    the device's own tile becomes the tile; an `all_to_all` followed by its
    inverse, and a `collective_permute` that sends every device its own
    data, disappear; a `dynamic_slice` of the device's tile of a value that
    an `all_gather` rebuilt from those tiles is the tile. Before
    partitioning: a `sharding_constraint` of a value that already carries
    the same sharding is removed. Device-dependent offsets are recognised
    by evaluating them for every device (passes/DeviceIndexEval.h).

    Before:
    ```mlir
    %g = torus.all_gather %x, all_gather_dim = 0 {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
         : (tensor<4x8xf32>) -> tensor<8x8xf32>
    %s = torus.dynamic_slice %g[%off, %zero], sizes = [4, 8]   // %off = 4 * partition_id
         : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
    ```
    After: uses of `%s` use `%x`.
  }];
  let dependentDialects = ["::mlir::torus::TorusDialect"];
}

def TorusReduceScatterCreator
    : Pass<"torus-reduce-scatter-creator", "ModuleOp"> {
  let summary = "Turn an all-reduce sliced by device into a reduce-scatter";
  let description = [{
    An `all_reduce` whose result is only used by one `dynamic_slice` that
    takes, on the device at position k of its group, block k of one
    dimension (and everything of the others) is a `reduce_scatter` over the
    same groups: it moves 1/n of the data. Offsets are recognised by
    evaluating them for every device.

    Before:
    ```mlir
    %s = torus.all_reduce sum %x {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : tensor<8x4xf32>
    %t = torus.dynamic_slice %s[%off, %zero], sizes = [4, 4]   // %off = 4 * partition_id
         : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
    ```
    After:
    ```mlir
    %t = torus.reduce_scatter sum %x, scatter_dimension = 0
         {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<8x4xf32>) -> tensor<4x4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::torus::TorusDialect"];
}

def TorusAllReduceSimplifier
    : Pass<"torus-all-reduce-simplifier", "ModuleOp"> {
  let summary = "Replace all-reduces of values every member already agrees on";
  let description = [{
    XLA's AllReduceSimplifier. A value computed only from constants, iotas
    and results of collectives whose groups cover the all-reduce's groups is
    the same on every member of the group (a replication analysis); its
    `sum` all-reduce is a multiplication by the group size, its `max` and
    `min` all-reduces the value itself, its `product` a power. An
    all-reduce over groups of one is the identity.

    Before:
    ```mlir
    %c = torus.constant dense<2.0> : tensor<4xf32>
    %s = torus.all_reduce sum %c {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : tensor<4xf32>
    ```
    After:
    ```mlir
    %c = torus.constant dense<2.0> : tensor<4xf32>
    %n = torus.constant dense<4.0> : tensor<4xf32>
    %s = torus.multiply %c, %n : tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::torus::TorusDialect"];
}

def TorusAllReduceCombiner : Pass<"torus-all-reduce-combiner", "ModuleOp"> {
  let summary = "Bucket small independent all-reduces into one";
  let description = [{
    XLA's AllReduceCombiner. All-reduces in one block with the same
    reduction, element type and groups are combined, in order, while their
    total size stays within `threshold-bytes` and every use of their
    results comes after the last definition of their operands (so none
    depends on another): the operands are flattened and concatenated,
    reduced by one `all_reduce` placed after that definition, and sliced
    and reshaped back. Data-parallel gradients become one collective
    instead of one per variable.

    Before:
    ```mlir
    %a = torus.all_reduce sum %x {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : tensor<4xf32>
    %b = torus.all_reduce sum %y {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : tensor<2x3xf32>
    ```
    After:
    ```mlir
    %0 = torus.reshape %y : (tensor<2x3xf32>) -> tensor<6xf32>
    %1 = torus.concatenate(%x, %0), dimension = 0 : (tensor<4xf32>, tensor<6xf32>) -> tensor<10xf32>
    %2 = torus.all_reduce sum %1 {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : tensor<10xf32>
    %a = torus.slice %2, start_indices = [0], limit_indices = [4], strides = [1] : (tensor<10xf32>) -> tensor<4xf32>
    %3 = torus.slice %2, start_indices = [4], limit_indices = [10], strides = [1] : (tensor<10xf32>) -> tensor<6xf32>
    %b = torus.reshape %3 : (tensor<6xf32>) -> tensor<2x3xf32>
    ```
  }];
  let options = [
    Option<"thresholdBytes", "threshold-bytes", "int64_t",
           /*default=*/"4194304",
           "Largest combined all-reduce, in bytes">,
  ];
  let dependentDialects = ["::mlir::torus::TorusDialect"];
}

#endif // TORUS_PASSES_PASSES_TD
