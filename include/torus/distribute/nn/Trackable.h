//===- Trackable.h - Objects a Checkpoint saves -----------------*- C++ -*-===//
#ifndef TORUS_DISTRIBUTE_NN_TRACKABLE_H
#define TORUS_DISTRIBUTE_NN_TRACKABLE_H

#include "torus/distribute/Variable.h"

#include <string>
#include <utility>
#include <vector>

namespace torus::distribute::nn {

/// Something that owns variables: models, layers, optimizers. Paths are
/// structural ("layer-0/kernel"), so a checkpoint restores into a freshly
/// built object whatever its layers are named.
class Trackable {
public:
  virtual ~Trackable() = default;
  virtual std::vector<std::pair<std::string, Variable>>
  trackedVariables() const = 0;
};

} // namespace torus::distribute::nn

#endif // TORUS_DISTRIBUTE_NN_TRACKABLE_H
