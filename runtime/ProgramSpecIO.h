//===- ProgramSpecIO.h - ProgramSpec and AOT metadata as JSON ---*- C++ -*-===//
//
// An ahead-of-time compiled program is two files: the object code
// (`step.o`, from `torusc --emit=obj -o step.o`) and its metadata
// (`step.torus.json`): the ProgramSpec plus what a loader needs to find and
// check the code. Both are written and read here without MLIR or LLVM, so a
// program linked only against the runtime can load them.
//
// The metadata file (format version 1; docs/torusc.md documents it):
//
//   {
//     "format": "torus-aot", "version": 1,
//     "object": "step.o",                  // relative to this file's folder
//     "object_hash": "fnv1a64:0123abcd...", // of the object's bytes; optional
//     "entry": "__torus_entry_step",        // void(void **buffers)
//     "target": {"triple": "x86_64-pc-linux-gnu", "cpu": "skylake-avx512",
//                "features": "+avx,+avx2,..."},
//     "input_names": ["w", "x"],            // optional, for --input NAME=
//     "device_assignment": {"topology": "v3-8", "num_partitions": 1,
//                           "replica_to_core": [0, 1, 2, 3]},  // optional
//     "counts": {"bf16_flops": 0, "f32_flops": 48, "hbm_bytes": 152},
//                                           // optional, for the cost model
//     "program": {                          // the ProgramSpec
//       "name": "step", "num_replicas": 4,
//       "inputs": ["f32[4,3]", "f32[2,4]"], "outputs": ["f32[2,3]"],
//       "collectives": [{"kind": "all_reduce", "reduce": "sum",
//                        "operand": "f32[2,3]",
//                        "replica_groups": [[0, 1, 2, 3]],
//                        "location": "step.mlir:3:8"}]
//     }
//   }
//
// Tensor types use the HLO spelling of TensorSpec::toString(). Unknown keys
// are ignored (newer writers may add some); missing required keys, wrong
// types and unknown enum names are InvalidArgument errors naming the key.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_PROGRAMSPECIO_H
#define TORUS_RUNTIME_PROGRAMSPECIO_H

#include "runtime/ProgramSpec.h"
#include "torus/Status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace torus::rt {

/// The metadata of an ahead-of-time compiled program.
struct ProgramArtifact {
  static constexpr int kFormatVersion = 1;

  ProgramSpec spec;
  /// Symbol of the packed `void(void **)` entry point in the object file.
  std::string entrySymbol;
  /// The object file, as written in the metadata (relative to its folder
  /// unless absolute).
  std::string objectFile;
  /// objectHash() of the object file's bytes: the loader refuses an
  /// object that was corrupted or replaced, and metadata without one
  /// (older files) before reading any of the object (AotObjectCheck.h).
  std::string objectHash;
  /// The machine the code was compiled for (LLVM triple, CPU, features).
  std::string targetTriple;
  std::string targetCpu;
  std::string targetFeatures;
  /// Names of the entry's arguments (may be empty: then by index only).
  std::vector<std::string> inputNames;
  /// The device assignment the program was compiled for, if any: the
  /// topology (preset name or mesh string), partitions per replica, and the
  /// emulated core of each logical device d = replica * numPartitions +
  /// partition, as RunOptions::replicaToCore (empty: device d on core d).
  std::string topology;
  int64_t numPartitions = 1;
  std::vector<int64_t> replicaToCore;
  /// What one core computes per step, counted by the compiler for the cost
  /// model (runtime/cost's ProgramCounts); absent in older files.
  bool hasCounts = false;
  double bf16Flops = 0;
  double f32Flops = 0;
  double hbmBytes = 0;
};

/// `fnv1a64:` and the 64-bit FNV-1a hash of `bytes` in hex.
std::string objectHash(std::string_view bytes);

/// `f32[2,3]` back to a TensorSpec.
absl::StatusOr<TensorSpec> parseTensorSpec(std::string_view text);

/// The ProgramSpec alone as a JSON object, and back.
std::string programSpecToJson(const ProgramSpec &spec);
absl::StatusOr<ProgramSpec> programSpecFromJson(std::string_view json);

/// The whole metadata file's text, and back.
std::string programArtifactToJson(const ProgramArtifact &artifact);
absl::StatusOr<ProgramArtifact> programArtifactFromJson(std::string_view json);

/// Writes and reads a metadata file. Reading names the file in errors.
absl::Status writeProgramArtifact(const std::string &path,
                                  const ProgramArtifact &artifact);
absl::StatusOr<ProgramArtifact> readProgramArtifact(const std::string &path);

/// The object file of `artifact` read from `metadataPath`: its `objectFile`
/// resolved against the metadata file's folder.
std::string resolveObjectPath(const std::string &metadataPath,
                              const ProgramArtifact &artifact);

/// `step.o` → `step.torus.json`: the metadata file written next to an
/// object file (a trailing `.o` is replaced, anything else appended to).
std::string metadataPathForObject(const std::string &objectPath);

} // namespace torus::rt

#endif // TORUS_RUNTIME_PROGRAMSPECIO_H
