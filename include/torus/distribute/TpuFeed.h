//===- TpuFeed.h - Host-side infeed partitioning (tpu_feed.py) --*- C++ -*-===//
//
// The host-side input partitioner of TensorFlow's partitioned infeed
// (tensorflow/python/tpu/tpu_feed.py, spec §8.7 "Uneven splits"): a batch is
// cut into one tile per logical core of a replica before it is fed. Unlike
// experimental_split_to_logical_devices, it accepts dimensions that do not
// divide evenly: XLA's greedy split, ceil(size / n) first.
//
//   auto tiles = tpu_feed::partitionOrReplicateOnHost(x, {{2, 4}}, 8);
//   // x of shape (5, 14): tiles (3,4) (3,4) (3,4) (3,2) (2,4) (2,4) (2,4) (2,2)
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_TPUFEED_H
#define TORUS_DISTRIBUTE_TPUFEED_H

#include "torus/HostTensor.h"
#include "torus/Status.h"

#include <cstdint>
#include <optional>
#include <vector>

/// \namespace torus::distribute::tpu_feed
/// tensorflow/python/tpu/tpu_feed.py: the host-side partitioning of infeed
/// data over a replica's logical cores.
namespace torus::distribute::tpu_feed {

/// _PartitionedInfeedQueue._check_input_partition_dims: nullopt or a product
/// of 1 always passes. InvalidArgument, in this order: "All input partition
/// dims must be >= 1."; "The product of each input partition dim should
/// equal to num_cores_per_replica. (dim = [1 2], num_cores_per_replica =
/// 8)"; "Input partition dims must have the same number of dimensions as the
/// `Tensor` to be partitioned. (tensor shape = [5, 14], input partition dims
/// = [8])." (numpy renders dims, Python lists the shape).
absl::Status
checkInputPartitionDims(const Shape &shape,
                        const std::optional<std::vector<int64_t>> &dims,
                        int64_t numCoresPerReplica);

/// partition_or_replicate_on_host(tensor, dims): with `dims` nullopt the
/// tensor once per logical core (`numCoresPerReplica` copies); otherwise its
/// tiles in row-major order of `dims` (dimension 0 outermost). A dimension of
/// size s cut d ways gives d equal parts when d divides s; else parts of
/// c = s/d + 1, the left-over s % c, and empty (size 0) parts up to d.
/// Checks the dims first (checkInputPartitionDims).
absl::StatusOr<std::vector<HostTensor>>
partitionOrReplicateOnHost(const HostTensor &tensor,
                           const std::optional<std::vector<int64_t>> &dims,
                           int64_t numCoresPerReplica);

/// The sizes one dimension of `size` is cut into `parts` ways (above).
std::vector<int64_t> splitSizes(int64_t size, int64_t parts);

} // namespace torus::distribute::tpu_feed

#endif // TORUS_DISTRIBUTE_TPUFEED_H
