//===- Checkpoint.h - Saving and restoring variables ------------*- C++ -*-===//
//
// tf.train.Checkpoint(model=..., optimizer=...): saves every variable of
// the tracked objects, optimizer slots included, to one file, and restores
// them all or none.
//
//   Checkpoint ckpt({{"model", model.get()}, {"optimizer", &optimizer}});
//   auto path = ckpt.save("/tmp/run/ckpt");     // "/tmp/run/ckpt-1"
//   ...
//   TORUS_RETURN_IF_ERROR(ckpt.restore(*path));
//
// The file is written to a temporary name in the same directory, flushed
// and renamed over the target, so a reader sees the old file or the new
// one, never a mix. It ends in a checksum; restore() reads and checks the
// whole file and every variable's type before assigning anything, so a
// truncated or corrupted file is an error and leaves every variable as it
// was. Format: docs/strategy.md ("Checkpoint format").
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_CHECKPOINT_H
#define TORUS_DISTRIBUTE_CHECKPOINT_H

#include "torus/HostTensor.h"
#include "torus/Status.h"
#include "torus/distribute/nn/Trackable.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace torus::distribute {

/// tf.train.Checkpoint over named Trackable objects (layers, models,
/// optimizers): saves all their variables to one file and restores all or none
/// (see the top of this file). Errors: PermissionDenied or Unavailable when the
/// file cannot be created, written, flushed or renamed; InvalidArgument "two
/// tracked variables share the key '...'"; for restore and readFile, NotFound
/// "Failed to find any matching files for <path>", DataLoss "checkpoint
/// '<path>' is corrupted: ..." for a truncated or damaged file, NotFound "...
/// has no value for '<key>'" and InvalidArgument "... holds <spec> ..." for a
/// variable the file lacks or holds with another type.
class Checkpoint {
public:
  /// The named objects to track (not owned; they must outlive the
  /// checkpoint).
  explicit Checkpoint(
      std::vector<std::pair<std::string, nn::Trackable *>> objects);

  /// Writes "{prefix}-{n}", records it as the latest in "{dir}/checkpoint",
  /// and returns its path. n counts saves from 1, continuing after the
  /// number of the checkpoint last restored ("ckpt-3" restored: the next
  /// save is "ckpt-4"), and skips numbers whose file exists: a save never
  /// replaces a checkpoint.
  absl::StatusOr<std::string> save(const std::string &prefix);
  /// Writes exactly `path`.
  absl::Status write(const std::string &path) const;
  /// Restores every tracked variable from `path` (optimizer slots are
  /// created as needed). Nothing is assigned unless the whole file is valid
  /// and matches.
  absl::Status restore(const std::string &path);

  /// The values a checkpoint file holds, by key, after checking it.
  static absl::StatusOr<std::map<std::string, HostTensor>>
  readFile(const std::string &path);

private:
  /// key -> variable for every tracked variable and existing slot.
  std::vector<std::pair<std::string, Variable>> entries() const;

  std::vector<std::pair<std::string, nn::Trackable *>> objects_;
  int64_t saveCounter_ = 0;
};

/// tf.train.latest_checkpoint(directory): the path the "checkpoint" file
/// names; NotFound when there is no such file (nothing saved yet), DataLoss
/// when it exists but names no checkpoint (empty, garbage).
absl::StatusOr<std::string> latestCheckpoint(const std::string &directory);

/// The number n of a checkpoint path "{prefix}-{n}", if it has one.
std::optional<int64_t> checkpointNumber(const std::string &path);

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_CHECKPOINT_H
