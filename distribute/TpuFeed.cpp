//===- TpuFeed.cpp - Host-side infeed partitioning (tpu_feed.py) ----------===//

#include "torus/distribute/TpuFeed.h"
#include "distribute/HostOps.h"

#include <algorithm>
#include <string>

namespace torus::distribute::tpu_feed {

namespace {

/// numpy's str() of an int array: "[1 2]".
std::string numpyInts(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? " " : "") + std::to_string(v[i]);
  return s + "]";
}

/// A Python list of ints: "[5, 14]".
std::string pyList(const Shape &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

} // namespace

absl::Status
checkInputPartitionDims(const Shape &shape,
                        const std::optional<std::vector<int64_t>> &dims,
                        int64_t numCoresPerReplica) {
  if (!dims)
    return absl::OkStatus();
  int64_t product = 1;
  for (int64_t d : *dims) {
    if (d < 1)
      return absl::InvalidArgumentError(
          "All input partition dims must be >= 1.");
    product *= d;
  }
  if (product == 1)
    return absl::OkStatus();
  if (product != numCoresPerReplica)
    return absl::InvalidArgumentError(
        "The product of each input partition dim should equal to "
        "num_cores_per_replica. (dim = " +
        numpyInts(*dims) +
        ", num_cores_per_replica = " + std::to_string(numCoresPerReplica) +
        ")");
  if (dims->size() != shape.size())
    return absl::InvalidArgumentError(
        "Input partition dims must have the same number of dimensions as the "
        "`Tensor` to be partitioned. (tensor shape = " +
        pyList(shape) + ", input partition dims = " + numpyInts(*dims) +
        ").");
  return absl::OkStatus();
}

std::vector<int64_t> splitSizes(int64_t size, int64_t parts) {
  if (size % parts == 0)
    return std::vector<int64_t>(parts, size / parts);
  // XLA's greedy split: ceil(size / parts) first, then what is left.
  const int64_t ceil = size / parts + 1;
  std::vector<int64_t> sizes(size / ceil, ceil);
  sizes.push_back(size % ceil);
  while (static_cast<int64_t>(sizes.size()) < parts)
    sizes.push_back(0);
  return sizes;
}

absl::StatusOr<std::vector<HostTensor>>
partitionOrReplicateOnHost(const HostTensor &tensor,
                           const std::optional<std::vector<int64_t>> &dims,
                           int64_t numCoresPerReplica) {
  TORUS_RETURN_IF_ERROR(
      checkInputPartitionDims(tensor.shape(), dims, numCoresPerReplica));
  if (!dims)
    return std::vector<HostTensor>(
        static_cast<size_t>(std::max<int64_t>(numCoresPerReplica, 1)), tensor);
  std::vector<HostTensor> output{tensor};
  // A product of 1 passes the checks whatever the rank: nothing is split.
  for (size_t axis = 0; axis < dims->size() && axis < tensor.shape().size();
       ++axis) {
    const int64_t d = (*dims)[axis];
    if (d <= 1)
      continue;
    const std::vector<int64_t> sizes = splitSizes(tensor.shape()[axis], d);
    std::vector<HostTensor> next;
    for (const HostTensor &x : output) {
      int64_t begin = 0;
      for (int64_t n : sizes) {
        next.push_back(detail::sliceAxis(x, static_cast<int64_t>(axis), begin,
                                         begin + n));
        begin += n;
      }
    }
    output = std::move(next);
  }
  return output;
}

} // namespace torus::distribute::tpu_feed
