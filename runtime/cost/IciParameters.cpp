//===- IciParameters.cpp - Link figures the cost model prices with --------===//

#include "runtime/cost/IciParameters.h"

#include "runtime/mesh/TpuGeneration.h"

namespace torus::rt {

IciParameters IciParameters::forGeneration(const TpuGeneration &generation) {
  IciParameters p;
  p.linkBandwidth = generation.iciLinkBandwidth;
  p.onChipBandwidth = generation.hbmBandwidthPerCore;
  return p;
}

} // namespace torus::rt
