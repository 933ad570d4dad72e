//===- TpuImpl.h - The runtime objects behind Tpu.h's handles ---*- C++ -*-===//
#ifndef TORUS_DISTRIBUTE_TPUIMPL_H
#define TORUS_DISTRIBUTE_TPUIMPL_H

#include "runtime/mesh/ClusterResolver.h"
#include "runtime/mesh/DeviceAssignment.h"
#include "runtime/mesh/Topology.h"
#include "torus/distribute/Tpu.h"

#include <memory>

namespace torus::distribute {

struct Topology::Impl {
  std::shared_ptr<const rt::Topology> topology;
};

struct TPUClusterResolver::Impl {
  rt::TPUClusterResolver resolver;
};

struct DeviceAssignment::Impl {
  rt::DeviceAssignment assignment;
};

inline Topology wrapTopology(rt::Topology t) {
  auto impl = std::make_shared<Topology::Impl>();
  impl->topology = std::make_shared<const rt::Topology>(std::move(t));
  return Topology(impl);
}

} // namespace torus::distribute

#endif // TORUS_DISTRIBUTE_TPUIMPL_H
