//===- Distribute.h - The whole Strategy API --------------------*- C++ -*-===//
//
// TensorFlow's tf.distribute strategies in C++, over Torus's compiler and
// emulated TPU runtime. Include this header and link Torus::distribute.
// docs/strategy.md walks through a training loop next to its Python
// original.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_DISTRIBUTE_DISTRIBUTE_H
#define TORUS_DISTRIBUTE_DISTRIBUTE_H

#include "torus/Torus.h"
#include "torus/distribute/CentralStorageStrategy.h"
#include "torus/distribute/ClusterResolver.h"
#include "torus/distribute/Contexts.h"
#include "torus/distribute/Dataset.h"
#include "torus/distribute/DistributedDataset.h"
#include "torus/distribute/Enums.h"
#include "torus/distribute/MirroredStrategy.h"
#include "torus/distribute/MultiWorkerMirroredStrategy.h"
#include "torus/distribute/OneDeviceStrategy.h"
#include "torus/distribute/ReplicaContext.h"
#include "torus/distribute/Strategy.h"
#include "torus/distribute/TPUStrategy.h"
#include "torus/distribute/Tpu.h"
#include "torus/distribute/TpuFeed.h"
#include "torus/distribute/Values.h"
#include "torus/distribute/Variable.h"

/// \namespace torus::distribute
/// tf.distribute in C++: the strategies (Strategy and its subclasses), their
/// variables, datasets, replica and cross-replica contexts and the emulated
/// TPU system they run on (docs/strategy.md).

/// \namespace torus::distribute::nn
/// A subset of tf.keras for training under a strategy: layers (Layer, Dense,
/// Sequential), losses, optimizers, activations and initializers.

#endif // TORUS_DISTRIBUTE_DISTRIBUTE_H
