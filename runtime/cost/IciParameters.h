//===- IciParameters.h - Link figures the cost model prices with -*- C++ -*-===//
//
// The figures of one TPU generation's interconnect the cost model uses:
// bandwidth of one ICI link in one direction (TpuGeneration, cited in
// docs/tpu-topology.md), the latency of one ICI hop, and the path between
// the two TensorCores of a v2/v3 chip. The latencies and the on-chip
// bandwidth are estimates, not published figures: docs/cost-model.md says
// where each number comes from. Callers can override any of them.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COST_ICIPARAMETERS_H
#define TORUS_RUNTIME_COST_ICIPARAMETERS_H

namespace torus::rt {

struct TpuGeneration;

/// Estimate: seconds per ICI hop (link traversal plus the per-step setup of
/// a collective's DMA), see docs/cost-model.md.
inline constexpr double kEstimatedIciHopLatency = 1e-6;
/// Estimate: seconds for a transfer between two cores of one chip.
inline constexpr double kEstimatedOnChipLatency = 0.5e-6;

struct IciParameters {
  /// Bytes per second one ICI link carries in one direction.
  double linkBandwidth = 0;
  /// Seconds one hop adds to a message.
  double hopLatency = kEstimatedIciHopLatency;
  /// Bytes per second between two cores of one chip (v2/v3 only): estimated
  /// as one core's HBM bandwidth.
  double onChipBandwidth = 0;
  /// Seconds a transfer between two cores of one chip takes to start.
  double onChipLatency = kEstimatedOnChipLatency;
  /// Rings (and the rings of a torus schedule) use both directions of their
  /// links: every step each member sends half its chunk to the next member
  /// and half to the previous one, as TPU collectives do (the JAX scaling
  /// book prices a full ring at the bidirectional bandwidth). With two
  /// members there is one neighbour and nothing changes. False prices the
  /// runtime's unidirectional schedule.
  bool bidirectionalRings = true;
  /// A torus schedule over D grid dimensions splits the data into D parts
  /// that run the dimensions in D rotated orders at once (x-y-z, y-z-x,
  /// z-x-y), so every dimension's links carry data in every phase: the
  /// scaling book's multi-axis AllGather, D times the bandwidth of one axis.
  /// The phases are kept in step, so each lasts as long as its slowest
  /// dimension; when one order is faster (little data on a grid of unequal
  /// extents) that one is priced. False runs all the data in one order (the
  /// runtime's schedule).
  bool concurrentDimensionOrders = true;

  /// The figures of `generation`.
  static IciParameters forGeneration(const TpuGeneration &generation);
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_COST_ICIPARAMETERS_H
