//===- Sharding.cpp - Placing traced tensors on logical devices -----------===//

#include "torus/Sharding.h"
#include "ir/Sharding.h"
#include "ir/trace/TraceContext.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstring>

namespace torus {

namespace {
thread_local int64_t currentLogicalDevices = 1;
thread_local bool currentSpmd = false;

/// Python's repr of a list of ints: `[1, 2, 2, 1]`.
std::string pyList(const std::vector<int64_t> &v) {
  return fmt::format("[{}]", fmt::join(v, ", "));
}
} // namespace

LogicalDeviceScope::LogicalDeviceScope(int64_t logicalDevicesPerReplica,
                                       bool xlaSpmdPartitioning)
    : previousDevices_(currentLogicalDevices), previousSpmd_(currentSpmd) {
  currentLogicalDevices = logicalDevicesPerReplica;
  currentSpmd = xlaSpmdPartitioning;
}

LogicalDeviceScope::~LogicalDeviceScope() {
  currentLogicalDevices = previousDevices_;
  currentSpmd = previousSpmd_;
}

int64_t logicalDevicesPerReplica() { return currentLogicalDevices; }

absl::Status checkAssignToLogicalDevice(int64_t logicalDeviceId,
                                        int64_t numLogicalDevices,
                                        bool xlaSpmdPartitioning) {
  if (xlaSpmdPartitioning)
    return absl::InvalidArgumentError(
        "Cannot assign a tensor to a logical device in SPMD mode. To disable "
        "SPMD, Please construct the TPUStrategy with "
        "`experimental_spmd_xla_partitioning=False`");
  if (logicalDeviceId < 0 || logicalDeviceId >= numLogicalDevices)
    return absl::InvalidArgumentError(fmt::format(
        "`logical_core_id` to assign must be lower then total number of "
        "logical devices per replica. Received logical device id {} but "
        "there are only total of {} logical devices in replica.",
        logicalDeviceId, numLogicalDevices));
  return absl::OkStatus();
}

absl::Status
checkSplitToLogicalDevices(const Shape &shape,
                           const std::vector<int64_t> &partitionDimensions,
                           int64_t numLogicalDevices) {
  if (shape.size() != partitionDimensions.size())
    return absl::InvalidArgumentError(fmt::format(
        "Length of `partition_dimensions` must equal to the rank of "
        "`tensor.shape` ({}). Received len(partition_dimensions)={}.",
        shape.size(), partitionDimensions.size()));
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t split = partitionDimensions[d];
    if (split == 0) // Python's `dim_size % 0`.
      return absl::InvalidArgumentError("integer modulo by zero");
    if (shape[d] % split != 0)
      return absl::InvalidArgumentError(fmt::format(
          "Tensor shape at `partition_dimensions[{}]` must be divisible by "
          "corresponding value specified by `partition_dimensions` ({}). "
          "Received: {}.",
          d, split, shape[d]));
  }
  int64_t product = 1;
  for (int64_t p : partitionDimensions)
    product *= p;
  if (product != numLogicalDevices)
    return absl::InvalidArgumentError(fmt::format(
        "The product of `partition_dimensions` should be the same as the "
        "number of logical devices (={}). Received "
        "`partition_dimensions`={},and their product is {}.",
        numLogicalDevices, pyList(partitionDimensions), product));
  return absl::OkStatus();
}

namespace {

/// Annotates `t` with `sharding`: on an argument of the traced function
/// (not yet annotated) as its `torus.sharding`, elsewhere with a
/// torus.sharding_constraint. Records the logical device count in the
/// module.
Tensor annotate(const Tensor &t, mlir::torus::ShardingAttr sharding,
                const char *opName, const Loc &loc) {
  TraceContext *ctx = t.context();
  mlir::Value value = ctx->value(t);
  mlir::OpBuilder &b = ctx->builder();
  mlir::Block *block = b.getInsertionBlock();
  auto module = block->getParentOp()->getParentOfType<mlir::ModuleOp>();
  if (!module)
    module = mlir::dyn_cast<mlir::ModuleOp>(block->getParentOp());
  int64_t devices = logicalDevicesPerReplica();
  if (module) {
    auto attr =
        module->getAttrOfType<mlir::IntegerAttr>(mlir::torus::kNumPartitionsAttrName);
    if (attr && attr.getInt() != devices)
      return ctx->fail(loc, opName,
                       fmt::format("this trace already annotated tensors for "
                                   "{} logical devices per replica, now {}",
                                   attr.getInt(), devices));
    if (!attr)
      module->setAttr(mlir::torus::kNumPartitionsAttrName,
                      b.getI64IntegerAttr(devices));
  }
  if (auto arg = mlir::dyn_cast<mlir::BlockArgument>(value)) {
    auto fn = mlir::dyn_cast<mlir::func::FuncOp>(arg.getOwner()->getParentOp());
    if (fn && fn.isPublic() && arg.getOwner() == &fn.getBody().front() &&
        !fn.getArgAttr(arg.getArgNumber(), mlir::torus::kShardingAttrName)) {
      fn.setArgAttr(arg.getArgNumber(), mlir::torus::kShardingAttrName,
                    sharding);
      return t;
    }
  }
  auto op = b.create<mlir::torus::ShardingConstraintOp>(
      ctx->location(loc), value.getType(), value, sharding);
  return ctx->wrap(op.getResult());
}

/// The trace of `t`, or null when `t` is invalid (its error is recorded).
TraceContext *traceOfValid(const Tensor &t) {
  return t.valid() ? t.context() : nullptr;
}
} // namespace

Tensor assignToLogicalDevice(const Tensor &t, int64_t logicalDeviceId,
                             Loc loc) {
  TraceContext *ctx = traceOfValid(t);
  if (!ctx)
    return Tensor();
  absl::Status ok = checkAssignToLogicalDevice(
      logicalDeviceId, logicalDevicesPerReplica(), currentSpmd);
  if (!ok.ok())
    return ctx->fail(loc, "assign_to_logical_device",
                     std::string(ok.message()));
  return annotate(t,
                  mlir::torus::ShardingAttr::getMaximal(ctx->mlirContext(),
                                                        logicalDeviceId),
                  "assign_to_logical_device", loc);
}

Tensor replicateToLogicalDevices(const Tensor &t, Loc loc) {
  TraceContext *ctx = traceOfValid(t);
  if (!ctx)
    return Tensor();
  return annotate(t,
                  mlir::torus::ShardingAttr::getReplicated(ctx->mlirContext()),
                  "replicate_to_logical_devices", loc);
}

Tensor splitToLogicalDevices(const Tensor &t,
                             const std::vector<int64_t> &partitionDimensions,
                             Loc loc) {
  TraceContext *ctx = traceOfValid(t);
  if (!ctx)
    return Tensor();
  absl::Status ok = checkSplitToLogicalDevices(
      t.shape(), partitionDimensions, logicalDevicesPerReplica());
  if (!ok.ok())
    return ctx->fail(loc, "split_to_logical_devices",
                     std::string(ok.message()));
  llvm::SmallVector<int64_t> dims(partitionDimensions.begin(),
                                  partitionDimensions.end());
  auto sharding = mlir::torus::ShardingAttr::getTiled(ctx->mlirContext(), dims);
  if (sharding.isFullyReplicated())
    sharding = mlir::torus::ShardingAttr::getReplicated(ctx->mlirContext());
  return annotate(t, sharding, "split_to_logical_devices", loc);
}

Tensor withSharding(const Tensor &t, const std::string &hloSharding, Loc loc) {
  TraceContext *ctx = traceOfValid(t);
  if (!ctx)
    return Tensor();
  std::string error;
  auto spec = mlir::torus::parseShardingSpec(hloSharding, error);
  if (mlir::failed(spec))
    return ctx->fail(loc, "with_sharding", error);
  auto sharding = mlir::torus::getShardingAttr(ctx->mlirContext(), *spec);
  int64_t tiled = sharding.getDataTileDims().size();
  if (sharding.isTiled() && tiled != t.rank())
    return ctx->fail(loc, "with_sharding",
                     fmt::format("sharding {} has {} tile dimensions but the "
                                 "tensor {} has rank {}",
                                 hloSharding, tiled, t.spec().toString(),
                                 t.rank()));
  return annotate(t, sharding, "with_sharding", loc);
}

namespace {

/// Copies the block of `from` starting at `fromOffset` into `to` at
/// `toOffset`, `extent` elements per dimension (row-major, byte-wise).
void copyBlock(const HostTensor &from, const std::vector<int64_t> &fromOffset,
               HostTensor &to, const std::vector<int64_t> &toOffset,
               const std::vector<int64_t> &extent) {
  size_t width = byteWidth(from.dtype());
  int64_t rank = extent.size();
  for (int64_t e : extent)
    if (e <= 0)
      return;
  auto strides = [](const Shape &shape) {
    std::vector<int64_t> s(shape.size(), 1);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
      s[d] = s[d + 1] * shape[d + 1];
    return s;
  };
  std::vector<int64_t> fs = strides(from.shape()), ts = strides(to.shape());
  if (rank == 0) {
    std::memcpy(to.rawData(), from.rawData(), width);
    return;
  }
  std::vector<int64_t> index(rank, 0);
  const char *src = static_cast<const char *>(from.rawData());
  char *dst = static_cast<char *>(to.rawData());
  int64_t row = extent.back();
  while (true) {
    int64_t fi = 0, ti = 0;
    for (int64_t d = 0; d < rank; ++d) {
      fi += (fromOffset[d] + index[d]) * fs[d];
      ti += (toOffset[d] + index[d]) * ts[d];
    }
    std::memcpy(dst + ti * width, src + fi * width, row * width);
    int64_t d = rank - 2;
    for (; d >= 0; --d) {
      if (++index[d] < extent[d])
        break;
      index[d] = 0;
    }
    if (d < 0)
      break;
  }
}

absl::StatusOr<mlir::torus::ShardingSpec> parseSpec(const std::string &text) {
  std::string error;
  auto spec = mlir::torus::parseShardingSpec(text, error);
  if (mlir::failed(spec))
    return absl::InvalidArgumentError(error);
  return *spec;
}

/// Tile shape and offsets of `partition` under tiled `spec`.
absl::Status tileOf(const mlir::torus::ShardingSpec &spec, const Shape &shape,
                    int64_t partition, std::vector<int64_t> &local,
                    std::vector<int64_t> &offset) {
  int64_t rank = shape.size();
  int64_t dataDims = spec.tileDims.size() - (spec.lastTileDimReplicate ? 1 : 0);
  if (dataDims != rank)
    return absl::InvalidArgumentError(fmt::format(
        "sharding {} has {} tile dimensions but the tensor has rank {}",
        mlir::torus::formatShardingSpec(spec), dataDims, rank));
  auto it = std::find(spec.devices.begin(), spec.devices.end(), partition);
  if (it == spec.devices.end())
    return absl::InvalidArgumentError(
        fmt::format("sharding {} does not place partition {}",
                    mlir::torus::formatShardingSpec(spec), partition));
  int64_t linear = it - spec.devices.begin();
  std::vector<int64_t> index(spec.tileDims.size());
  for (int64_t d = static_cast<int64_t>(spec.tileDims.size()) - 1; d >= 0;
       --d) {
    index[d] = linear % spec.tileDims[d];
    linear /= spec.tileDims[d];
  }
  local.assign(rank, 0);
  offset.assign(rank, 0);
  for (int64_t d = 0; d < rank; ++d) {
    int64_t t = spec.tileDims[d];
    local[d] = (shape[d] + t - 1) / t;
    offset[d] = index[d] * local[d];
  }
  return absl::OkStatus();
}
} // namespace

absl::StatusOr<HostTensor> shardForPartition(const HostTensor &full,
                                             const std::string &hloSharding,
                                             int64_t partition,
                                             int64_t numPartitions) {
  TORUS_ASSIGN_OR_RETURN(auto spec, parseSpec(hloSharding));
  if (partition < 0 || partition >= numPartitions)
    return absl::InvalidArgumentError(fmt::format(
        "partition {} is not in [0, {})", partition, numPartitions));
  if (spec.kind != mlir::torus::ShardingKind::tiled)
    return full;
  std::vector<int64_t> local, offset;
  TORUS_RETURN_IF_ERROR(tileOf(spec, full.shape(), partition, local, offset));
  HostTensor tile(full.dtype(), Shape(local.begin(), local.end()));
  std::memset(tile.rawData(), 0, tile.sizeInBytes());
  std::vector<int64_t> extent(local.size());
  for (size_t d = 0; d < local.size(); ++d)
    extent[d] = std::min(local[d], full.shape()[d] - offset[d]);
  copyBlock(full, offset, tile, std::vector<int64_t>(local.size(), 0), extent);
  return tile;
}

absl::StatusOr<HostTensor> unshard(const std::vector<HostTensor> &tiles,
                                   const std::string &hloSharding,
                                   const Shape &fullShape) {
  TORUS_ASSIGN_OR_RETURN(auto spec, parseSpec(hloSharding));
  if (tiles.empty())
    return absl::InvalidArgumentError("unshard: no tiles");
  if (spec.kind == mlir::torus::ShardingKind::maximal) {
    if (spec.device >= static_cast<int64_t>(tiles.size()))
      return absl::InvalidArgumentError("unshard: no tile for the owner");
    return tiles[spec.device];
  }
  if (spec.kind != mlir::torus::ShardingKind::tiled)
    return tiles.front();
  HostTensor full(tiles.front().dtype(), fullShape);
  for (int64_t p = 0; p < static_cast<int64_t>(tiles.size()); ++p) {
    if (std::find(spec.devices.begin(), spec.devices.end(), p) ==
        spec.devices.end())
      continue;
    std::vector<int64_t> local, offset;
    TORUS_RETURN_IF_ERROR(tileOf(spec, fullShape, p, local, offset));
    if (tiles[p].shape() != Shape(local.begin(), local.end()))
      return absl::InvalidArgumentError(fmt::format(
          "unshard: tile {} has shape [{}], expected [{}]", p,
          fmt::join(tiles[p].shape(), ","), fmt::join(local, ",")));
    std::vector<int64_t> extent(local.size());
    for (size_t d = 0; d < local.size(); ++d)
      extent[d] = std::max<int64_t>(
          0, std::min(local[d], fullShape[d] - offset[d]));
    copyBlock(tiles[p], std::vector<int64_t>(local.size(), 0), full, offset,
              extent);
  }
  return full;
}

} // namespace torus
