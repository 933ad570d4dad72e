//===- OneDeviceStrategy.h - tf.distribute.OneDeviceStrategy ----*- C++ -*-===//
#ifndef TORUS_DISTRIBUTE_ONEDEVICESTRATEGY_H
#define TORUS_DISTRIBUTE_ONEDEVICESTRATEGY_H

#include "torus/distribute/Strategy.h"

namespace torus::distribute {

/// One replica on one emulated device. Variables are plain; reduce(SUM) of
/// a plain tensor is allowed (one replica).
class OneDeviceStrategy : public Strategy {
public:
  /// `device`: "/device:CPU:0", "GPU:0", "/device:TPU:0", ...
  static absl::StatusOr<OneDeviceStrategy>
  create(const std::string &device = "/device:CPU:0");

private:
  using Strategy::Strategy;
};

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_ONEDEVICESTRATEGY_H
