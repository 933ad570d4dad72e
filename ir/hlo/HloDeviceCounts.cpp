//===- HloDeviceCounts.cpp - How many devices an HLO program is for -------===//
//
// XLA's HloModule header states replica_count and num_partitions, but JAX
// 0.10's HLO text states neither: its device count is in the module's
// frontend_attributes (Shardy's `xla.sdy.meshes`), and in the device lists
// of its shardings. readDeviceCounts() takes each count from the first
// source that states it (docs/hlo.md, "Device counts"):
//
//   1. the header's replica_count / num_partitions (if it states one, the
//      other is 1: XLA writes the counts that are not 1);
//   2. frontend_attributes `mhlo.num_replicas` / `mhlo.num_partitions`;
//   3. partitions only: the largest `xla.sdy.meshes` mesh, else the highest
//      device a `sharding={devices=...}` or `{maximal device=N}` names;
//   4. the importer's options (torusc's and torus-run's --replicas and
//      --num-partitions);
//   5. one.
//
// It also decides whether the program is already per device: XLA's
// optimized HLO of a partitioned program (scheduled, or its entry renamed
// `*_spmd` by the SPMD partitioner), or a program of several devices whose
// collectives address devices (channel_id) and that has no shardings to
// partition by. Such a program is not partitioned again: it runs as one
// replica per device (docs/hlo.md, "Programs already per device").
//
//===----------------------------------------------------------------------===//

#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/Importer.h"

#include "llvm/ADT/StringExtras.h"

namespace mlir::torus::hlo {
namespace {

/// The devices of the largest `#sdy.mesh<["x"=4, "y"=2]>` in `text` (1 for
/// a mesh without axes, 0 if there is none).
int64_t largestSdyMesh(llvm::StringRef text) {
  int64_t largest = 0;
  size_t at = 0;
  while ((at = text.find("#sdy.mesh<", at)) != llvm::StringRef::npos) {
    at += 10;
    size_t end = text.find('>', at);
    llvm::StringRef mesh = text.slice(at, end);
    // Axes are `"name"=size`, before any `device_ids=`.
    mesh = mesh.split("device_ids").first;
    int64_t devices = 1;
    size_t eq = 0;
    while ((eq = mesh.find('=', eq)) != llvm::StringRef::npos) {
      ++eq;
      size_t digits = eq;
      while (digits < mesh.size() && llvm::isDigit(mesh[digits]))
        ++digits;
      int64_t size;
      if (digits > eq && !mesh.slice(eq, digits).getAsInteger(10, size) &&
          size > 0 && size <= (1 << 16))
        devices = std::min<int64_t>(devices * size, int64_t(1) << 20);
    }
    largest = std::max(largest, devices);
    at = end;
  }
  return largest;
}

/// `key=value` of a frontend_attributes value `{a="1", b={...}}`: the value
/// of `key` with quotes removed, or empty.
llvm::StringRef frontendAttribute(llvm::StringRef attrs, llvm::StringRef key) {
  size_t at = 0;
  while ((at = attrs.find(key, at)) != llvm::StringRef::npos) {
    bool starts = at == 0 || attrs[at - 1] == '{' || attrs[at - 1] == ',' ||
                  attrs[at - 1] == ' ';
    at += key.size();
    llvm::StringRef rest = attrs.drop_front(at).ltrim();
    if (!starts || !rest.consume_front("="))
      continue;
    rest = rest.ltrim();
    if (rest.consume_front("\""))
      return rest.take_until([](char c) { return c == '"'; });
    return rest.take_until([](char c) { return c == ',' || c == '}'; });
  }
  return {};
}

} // namespace

LogicalResult Importer::readDeviceCounts() {
  const Attr *frontend = ast_.attr("frontend_attributes");
  llvm::StringRef attrs = frontend ? frontend->value : llvm::StringRef();
  auto fromFrontend = [&](llvm::StringRef key, int64_t &out) {
    llvm::StringRef v = frontendAttribute(attrs, key).trim();
    int64_t n;
    if (v.empty() || v.getAsInteger(10, n) || n < 1 || n > (1 << 16))
      return false;
    out = n;
    return true;
  };

  // XLA's printer writes each count that is not 1: a header that states
  // one count says the other is 1.
  if (haveReplicaCount_ || haveNumPartitions_) {
    if (!haveReplicaCount_)
      replicasFrom_ = "the HloModule header, which states num_partitions "
                      "but not replica_count (1)";
    if (!haveNumPartitions_)
      partitionsFrom_ = "the HloModule header, which states replica_count "
                        "but not num_partitions (1)";
    return success();
  }
  {
    if (fromFrontend("mhlo.num_replicas", replicaCount_)) {
      replicasFrom_ = "frontend_attributes' mhlo.num_replicas";
    } else if (options_.numReplicas > 0) {
      replicaCount_ = options_.numReplicas;
      replicasFrom_ = "the replica count given to the importer (--replicas)";
    } else {
      replicasFrom_ = "the default: the HloModule header has no "
                      "replica_count, and no --replicas was given";
    }
  }
  {
    // The devices the shardings name.
    int64_t named = 0;
    {
      ScopedDiagnosticHandler quiet(ctx_,
                                    [](Diagnostic &) { return success(); });
      for (const Computation &comp : ast_.computations)
        for (const Instruction &instr : comp.instructions)
          if (const Attr *a = instr.attr("sharding")) {
            Sharding s;
            if (failed(AttrParser(*a, locator_).sharding(s)))
              continue;
            std::function<void(const Sharding &)> visit =
                [&](const Sharding &x) {
                  for (int64_t d : x.devices)
                    named = std::max(named, d + 1);
                  if (x.kind == Sharding::Kind::Maximal)
                    named = std::max(named, x.device + 1);
                  for (const Sharding &e : x.elements)
                    visit(e);
                };
            visit(s);
          }
    }
    int64_t mesh = largestSdyMesh(attrs);
    if (fromFrontend("mhlo.num_partitions", numPartitions_)) {
      partitionsFrom_ = "frontend_attributes' mhlo.num_partitions";
    } else if (mesh > 0) {
      numPartitions_ = mesh;
      partitionsFrom_ = "the largest mesh of frontend_attributes' "
                        "xla.sdy.meshes";
    } else if (named > 1) {
      numPartitions_ = named;
      partitionsFrom_ = "the devices the shardings name";
    } else if (options_.numPartitions > 0) {
      numPartitions_ = options_.numPartitions;
      partitionsFrom_ =
          "the partition count given to the importer (--num-partitions)";
    } else {
      partitionsFrom_ = "the default: the HloModule header has no "
                        "num_partitions, no mesh or sharding names devices, "
                        "and no --num-partitions was given";
    }
    if (numPartitions_ > (1 << 16)) {
      error(ast_.loc) << "the program names " << numPartitions_
                      << " devices (from " << partitionsFrom_
                      << "); Torus runs at most 65536";
      return failure();
    }
  }
  return success();
}

namespace {

bool isManualEdge(const Instruction &instr) {
  const Attr *target = instr.attr("custom_call_target");
  if (instr.opcode != "custom-call" || !target)
    return false;
  llvm::StringRef t = target->value.trim().trim('"');
  return t == "xla.sdy.GlobalToLocalShape" ||
         t == "xla.sdy.LocalToGlobalShape" || t == "SPMDFullToShardShape" ||
         t == "SPMDShardToFullShape";
}

bool isShardingCall(const Instruction &instr) {
  const Attr *target = instr.attr("custom_call_target");
  if (instr.opcode != "custom-call" || !target)
    return false;
  llvm::StringRef t = target->value.trim().trim('"');
  return t == "Sharding" || t == "xla.sdy.Sharding";
}

/// The quoted names in `text` (`{\"x\", \"y\"}`, escapes or not).
llvm::SmallVector<std::string> quotedNames(llvm::StringRef text) {
  llvm::SmallVector<std::string> names;
  std::string plain;
  for (char c : text)
    if (c != '\\')
      plain.push_back(c);
  llvm::StringRef rest(plain);
  while (true) {
    size_t open = rest.find('"');
    if (open == llvm::StringRef::npos)
      break;
    size_t close = rest.find('"', open + 1);
    if (close == llvm::StringRef::npos)
      break;
    names.push_back(rest.slice(open + 1, close).str());
    rest = rest.drop_front(close + 1);
  }
  return names;
}

} // namespace

bool Importer::hasManualComputation() {
  for (const Computation &comp : ast_.computations)
    for (const Instruction &instr : comp.instructions)
      if (isManualEdge(instr))
        return true;
  return false;
}

LogicalResult Importer::checkManualAxes() {
  // Shardy names the manual axes; Torus runs a manual computation over all
  // of the mesh's axes (of more than one device) as the program itself.
  const Attr *frontend = ast_.attr("frontend_attributes");
  llvm::StringRef meshes = frontend ? frontend->value : llvm::StringRef();
  size_t at = meshes.find("#sdy.mesh<[");
  if (at == llvm::StringRef::npos)
    return success();
  llvm::StringRef mesh = meshes.drop_front(at + 11).split(']').first;
  llvm::SmallVector<std::string> axes;
  for (llvm::StringRef axis : llvm::split(mesh, ',')) {
    auto [name, size] = axis.split('=');
    int64_t n;
    if (!size.trim().getAsInteger(10, n) && n > 1)
      axes.push_back(name.trim().trim('"').str());
  }
  for (const Computation &comp : ast_.computations)
    for (const Instruction &instr : comp.instructions) {
      const Attr *attrs = instr.attr("frontend_attributes");
      if (!isManualEdge(instr) || !attrs)
        continue;
      // xla.sdy.manual_axes="#sdy<manual_axes{\"x\", \"y\"}>"
      size_t open = attrs->value.find("manual_axes{");
      if (open == llvm::StringRef::npos)
        continue;
      llvm::StringRef text = attrs->value.drop_front(open + 12);
      text = text.take_until([](char c) { return c == '}'; });
      llvm::SmallVector<std::string> names = quotedNames(text);
      for (const std::string &axis : axes)
        if (!llvm::is_contained(names, axis)) {
          error(attrs->valueLoc)
              << "a manual computation (shard_map) over axes {"
              << llvm::join(names, ", ") << "} of mesh axes {"
              << llvm::join(axes, ", ") << "} is not supported: Torus runs "
              << "a shard_map over every mesh axis, as the program of each "
                 "device";
          return failure();
        }
    }
  return success();
}

llvm::DenseMap<int64_t, llvm::SmallVector<const Shape *>>
Importer::parameterShards() {
  llvm::DenseMap<int64_t, llvm::SmallVector<const Shape *>> shards;
  const Computation &entry = ast_.computations[ast_.entry];
  auto defining = [&](const Operand &o) -> const Instruction * {
    auto it = entry.byName.find(o.name);
    return it == entry.byName.end() ? nullptr
                                    : &entry.instructions[it->second];
  };
  for (const Instruction &instr : entry.instructions) {
    const Attr *target = instr.attr("custom_call_target");
    if (!isManualEdge(instr) || !(target->value.contains("GlobalToLocal") ||
                                  target->value.contains("FullToShard")))
      continue;
    llvm::SmallVector<const Shape *> leaves;
    instr.shape.leaves(leaves);
    if (leaves.size() != instr.operands.size())
      continue;
    for (auto [k, o] : llvm::enumerate(instr.operands)) {
      const Instruction *source = defining(o);
      for (int depth = 0; source && isShardingCall(*source) &&
                          source->operands.size() == 1 && depth < 8;
           ++depth)
        source = defining(source->operands[0]);
      if (!source || source->shape.isTuple)
        continue;
      if (auto n = parameterNumber(*source))
        shards[*n] = {leaves[k]};
    }
  }
  return shards;
}

bool Importer::isPerDeviceProgram() {
  if (replicaCount_ * numPartitions_ <= 1)
    return false;
  // A manual computation over every mesh axis: each device runs its body.
  if (hasManualComputation())
    return true;
  const Computation &entry = ast_.computations[ast_.entry];
  // XLA's SPMD partitioner renames the entry `<name>_spmd`, and schedules
  // (is_scheduled=true) only after partitioning.
  if (entry.name.ends_with("_spmd"))
    return true;
  if (const Attr *scheduled = ast_.attr("is_scheduled"))
    if (scheduled->value.trim() == "true")
      return true;
  // A body written per device, whose header does not say it is
  // partitioned: collectives that address devices and no sharding to
  // partition by. (With num_partitions in the header, such a program is a
  // partitioned one with nothing to partition.)
  if (numPartitions_ <= 1 || haveNumPartitions_)
    return false;
  bool deviceCollectives = false;
  for (const Computation &comp : ast_.computations)
    for (const Instruction &instr : comp.instructions) {
      if (instr.attr("sharding"))
        return false;
      if (const Attr *target = instr.attr("custom_call_target"))
        if (target->value.contains("Sharding") ||
            target->value.contains("SPMD") ||
            target->value.contains("xla.sdy."))
          return false;
      deviceCollectives |= instr.attr("channel_id") != nullptr;
    }
  return deviceCollectives;
}

} // namespace mlir::torus::hlo
