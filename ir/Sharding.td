//===- Sharding.td - The HLO sharding attribute ------------*- tablegen -*-===//
//
// `#torus.sharding<...>`: how a tensor is laid out over the logical devices
// (partitions) of one replica, spelled as XLA's HloSharding, and the
// `torus.sharding_constraint` annotation. Included from TorusOps.td; the C++
// lives in ir/Sharding.{h,cpp}.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_SHARDING_TD
#define TORUS_SHARDING_TD

include "ir/ShardingRuleOpInterface.td"
include "ir/TorusDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Torus_ShardingKind : I32EnumAttr<"ShardingKind",
    "the kind of an HLO sharding", [
      I32EnumAttrCase<"replicated", 0>, I32EnumAttrCase<"maximal", 1>,
      I32EnumAttrCase<"tiled", 2>, I32EnumAttrCase<"manual", 3>]> {
  let cppNamespace = "::mlir::torus";
  let genSpecializedAttr = 0;
}

def Torus_ShardingAttr : AttrDef<Torus_Dialect, "Sharding"> {
  let mnemonic = "sharding";
  let summary = "how a tensor is split over the logical devices of a replica";
  let description = [{
    XLA's `HloSharding`, in HLO's text spelling between the angle brackets:

    ```mlir
    #torus.sharding<{replicated}>                      // every device holds all of it
    #torus.sharding<{maximal device=1}>                // only logical device 1 holds it
    #torus.sharding<{devices=[1,2,4,1]<=[8]}>          // tiled, iota device list
    #torus.sharding<{devices=[2,2]0,2,1,3}>            // tiled, explicit device list
    #torus.sharding<{devices=[4,2]<=[2,4]T(1,0)}>      // tiled, transposed iota
    #torus.sharding<{devices=[2,1,2]<=[4] last_tile_dim_replicate}>
    #torus.sharding<{manual}>                          // per-device values (shard_map)
    ```

    A tiled sharding has a *tile assignment*: an array of logical device ids
    of shape `devices=[t0, t1, ...]`, one dimension per tensor dimension
    (plus, with `last_tile_dim_replicate`, a last dimension whose devices
    hold the same tile). Dimension `d` of the tensor is cut into `t_d` tiles
    of `ceil(size / t_d)` elements (the last ones padded when uneven); the
    device at index `(i0, i1, ...)` of the assignment holds tile
    `(i0, i1, ...)`. The device list is row-major; `<=[n]` is
    `0, 1, ..., n-1` and `<=[a,b]T(1,0)` the iota of shape `[a,b]`
    transposed, then read row-major (XLA's V2 form). It prints as `<=[n]`
    when the list is an iota and explicitly otherwise.

    `last_tile_dims={replicated}` is accepted as a synonym of
    `last_tile_dim_replicate`. Other subgroup types are not supported.

    TensorFlow's logical device calls map onto it one to one:
    `assign_to_logical_device(t, k)` is `{maximal device=k}`,
    `replicate_to_logical_devices(t)` is `{replicated}`, and
    `split_to_logical_devices(t, dims)` is `{devices=dims<=[prod(dims)]}`.

    On IR the attribute sits on a function argument or result
    (`{torus.sharding = #torus.sharding<...>}`), on an op as `torus.sharding`
    (one sharding for a single result, an array of them, one per result,
    otherwise), or in a `torus.sharding_constraint`.
  }];
  let parameters = (ins
    "ShardingKind":$kind,
    "int64_t":$device,
    ArrayRefParameter<"int64_t">:$tileDims,
    ArrayRefParameter<"int64_t">:$devices,
    "bool":$lastTileDimReplicate);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    // The custom<ShardingBody> directive of torus.sharding_constraint (the
    // attribute without its `#torus.sharding<>` wrapper), found by ADL.
    friend ::mlir::ParseResult parseShardingBody(::mlir::OpAsmParser &parser,
                                                 ShardingAttr &attr);
    friend void printShardingBody(::mlir::OpAsmPrinter &printer,
                                  ::mlir::Operation *op, ShardingAttr attr);

    static ShardingAttr getReplicated(MLIRContext *ctx);
    static ShardingAttr getMaximal(MLIRContext *ctx, int64_t device);
    static ShardingAttr getManual(MLIRContext *ctx);
    /// A tiled sharding; `devices` empty means the iota list.
    static ShardingAttr getTiled(MLIRContext *ctx, ArrayRef<int64_t> tileDims,
                                 ArrayRef<int64_t> devices = {},
                                 bool lastTileDimReplicate = false);

    bool isReplicated() const { return getKind() == ShardingKind::replicated; }
    bool isMaximal() const { return getKind() == ShardingKind::maximal; }
    bool isTiled() const { return getKind() == ShardingKind::tiled; }
    bool isManual() const { return getKind() == ShardingKind::manual; }
    /// Replicated, or tiled with every data dimension in one tile.
    bool isFullyReplicated() const;
    /// Tiles per tensor dimension (the tile dims without the replication
    /// dim); empty unless tiled.
    ArrayRef<int64_t> getDataTileDims() const;
    /// How many devices hold each tile (the last tile dim with
    /// last_tile_dim_replicate, else 1).
    int64_t getReplicationFactor() const;
    /// Devices the sharding spans: the tile assignment's size when tiled,
    /// else 0 (any number).
    int64_t getNumDevices() const;
    /// The index of `device` in the tile assignment (data dims, then the
    /// replication index when last_tile_dim_replicate); empty if absent.
    SmallVector<int64_t> getTileIndex(int64_t device) const;
    /// The device at `index` of the tile assignment.
    int64_t getDeviceAt(ArrayRef<int64_t> index) const;
    /// The shape every device holds: `ceil(shape[d] / tiles[d])`.
    SmallVector<int64_t> getLocalShape(ArrayRef<int64_t> shape) const;
    /// The first element, per dimension, of the tile `device` holds.
    SmallVector<int64_t> getTileOffsets(ArrayRef<int64_t> shape,
                                        int64_t device) const;
    /// True when some tiled dimension does not divide evenly.
    bool isUneven(ArrayRef<int64_t> shape) const;
    /// True when the device list is 0, 1, ..., n-1.
    bool hasIotaDevices() const;
    /// HLO's text form, `{devices=[2,1]<=[2]}`.
    std::string toString() const;
    /// Checks that the sharding fits a tensor of `shape`, and (when
    /// `numPartitions` > 0) that it names only devices below it. Reports
    /// through `emitError`.
    LogicalResult verifyFor(ArrayRef<int64_t> shape, int64_t numPartitions,
                            function_ref<InFlightDiagnostic()> emitError) const;
  }];
}

def Torus_ShardingConstraintOp : Torus_Op<"sharding_constraint", [Pure,
    SameOperandsAndResultType, Torus_VJPNotImplemented,
    Torus_ShardingRuleOpInterface]> {
  let summary = "annotate a value with a sharding";
  let description = [{
    The identity on `operand`, whose result must be laid out as `sharding`
    (XLA's `Sharding` custom call; TensorFlow's `XlaSharding`). Sharding
    propagation starts from these and never changes them; the SPMD
    partitioner turns each into the resharding its operand needs (often
    nothing) and removes it. The tracer's `splitToLogicalDevices`,
    `replicateToLogicalDevices` and `assignToLogicalDevice` emit it.

    ```mlir
    %y = torus.sharding_constraint %x, sharding = {devices=[1,2,4,1]<=[8]}
         : tensor<8x32x32x3xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand, Torus_ShardingAttr:$sharding);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `sharding` `=` custom<ShardingBody>($sharding) attr-dict `:`
    type($result)
  }];
  let hasVerifier = 1;
}

#endif // TORUS_SHARDING_TD
