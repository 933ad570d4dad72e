//===- CpuTarget.cpp - The x86-64 CPU generated code is compiled for ------===//

#include "runtime/jit/CpuTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/TargetParser/X86TargetParser.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace torus::rt {

namespace {

using FeatureMap = llvm::StringMap<bool>;

/// `+a,+b,-c`, sorted by name: one spelling per feature set, for cache keys.
std::string join(const FeatureMap &features) {
  std::vector<std::string> names;
  for (const auto &entry : features)
    names.push_back(entry.first().str());
  std::sort(names.begin(), names.end());
  std::string out;
  for (const std::string &name : names)
    out += (out.empty() ? "" : ",") +
           std::string(features.lookup(name) ? "+" : "-") + name;
  return out;
}

FeatureMap parseFeatures(std::string_view text) {
  FeatureMap map;
  for (llvm::StringRef f : llvm::split(llvm::StringRef(text), ','))
    if (f.size() > 1)
      map[f.drop_front()] = f.front() == '+';
  return map;
}

/// Applies `+name`/`-name` words to `features` with what they imply
/// (`+avx512bf16` enables AVX-512BW, `-avx2` disables AVX-512F).
absl::Status applyFeatures(std::string_view words, FeatureMap &features) {
  const FeatureMap host = llvm::sys::getHostCPUFeatures();
  for (llvm::StringRef word : llvm::split(llvm::StringRef(words), ',')) {
    word = word.trim();
    if (word.empty())
      continue;
    if (word.size() < 2 || (word.front() != '+' && word.front() != '-'))
      return absl::InvalidArgumentError(fmt::format(
          "bad CPU feature '{}': expected +name or -name, as in +avx512bf16",
          word.str()));
    bool enable = word.front() == '+';
    llvm::StringRef name = word.drop_front();
    FeatureMap probe;
    llvm::X86::updateImpliedFeatures(name, enable, probe);
    if (probe.empty() && !host.count(name))
      return absl::InvalidArgumentError(fmt::format(
          "unknown CPU feature '{}' (LLVM's names, as in +avx512bf16, "
          "+avx512fp16, -fma)",
          name.str()));
    features[name] = enable;
    llvm::X86::updateImpliedFeatures(name, enable, features);
  }
  return absl::OkStatus();
}

} // namespace

int64_t CpuTarget::vectorBits() const {
  if (hasFeature("avx512f"))
    return 512;
  if (hasFeature("avx2") && hasFeature("fma"))
    return 256;
  return 128;
}

bool CpuTarget::hasFeature(std::string_view feature) const {
  return parseFeatures(features).lookup(feature);
}

absl::StatusOr<CpuTarget> hostCpuTarget() {
  FeatureMap host = llvm::sys::getHostCPUFeatures();
  if (host.empty())
    return absl::InternalError("cannot detect this host's CPU features");
  CpuTarget target;
  target.triple = llvm::sys::getProcessTriple();
  target.cpu = llvm::sys::getHostCPUName().str();
  target.features = join(host);
  target.spec = "host";
  return target;
}

absl::StatusOr<CpuTarget> resolveCpuTarget(std::string_view cpu,
                                           std::string_view features) {
  CpuTarget target;
  if (cpu.empty() || cpu == "host" || cpu == "native") {
    TORUS_ASSIGN_OR_RETURN(target, hostCpuTarget());
    if (features.empty())
      return target;
    FeatureMap map = parseFeatures(target.features);
    TORUS_RETURN_IF_ERROR(applyFeatures(features, map));
    target.features = join(map);
    target.spec = fmt::format("host,{}", features);
    return target;
  }
  llvm::Triple triple(llvm::sys::getProcessTriple());
  if (triple.getArch() != llvm::Triple::x86_64)
    return absl::UnimplementedError(fmt::format(
        "CPU targets other than the host are x86-64 CPUs; this host is {}",
        triple.str()));
  if (llvm::X86::parseArchX86(llvm::StringRef(cpu.data(), cpu.size()),
                              /*Only64Bit=*/true) == llvm::X86::CK_None)
    return absl::InvalidArgumentError(fmt::format(
        "unknown x86-64 CPU '{}': expected host, an ISA level (x86-64, "
        "x86-64-v2, x86-64-v3, x86-64-v4) or a CPU name such as haswell, "
        "znver1, skylake-avx512 or sapphirerapids",
        cpu));
  llvm::SmallVector<llvm::StringRef> own;
  llvm::X86::getFeaturesForCPU(llvm::StringRef(cpu.data(), cpu.size()), own);
  FeatureMap map;
  for (llvm::StringRef f : own) {
    map[f] = true;
    llvm::X86::updateImpliedFeatures(f, true, map);
  }
  TORUS_RETURN_IF_ERROR(applyFeatures(features, map));
  target.triple = triple.str();
  target.cpu = std::string(cpu);
  target.features = join(map);
  target.spec = features.empty() ? std::string(cpu)
                                 : fmt::format("{},{}", cpu, features);
  return target;
}

absl::StatusOr<CpuTarget> parseCpuTarget(std::string_view spec) {
  size_t comma = spec.find(',');
  std::string_view cpu = spec.substr(0, comma);
  std::string_view features =
      comma == std::string_view::npos ? "" : spec.substr(comma + 1);
  auto target = resolveCpuTarget(cpu, features);
  if (!target.ok())
    return absl::Status(target.status().code(),
                        fmt::format("target '{}': {}", spec,
                                    std::string(target.status().message())));
  return target;
}

absl::StatusOr<CpuTarget> defaultCpuTarget(std::string_view spec) {
  if (!spec.empty())
    return parseCpuTarget(spec);
  if (const char *env = std::getenv("TORUS_TARGET"); env && *env) {
    auto target = parseCpuTarget(env);
    if (!target.ok())
      return absl::InvalidArgumentError(fmt::format(
          "TORUS_TARGET: {}", std::string(target.status().message())));
    return target;
  }
  return hostCpuTarget();
}

absl::Status checkHostCanRun(const CpuTarget &target) {
  llvm::Triple want(target.triple), have(llvm::sys::getProcessTriple());
  if (want.getArch() != have.getArch() || want.getOS() != have.getOS())
    return absl::FailedPreconditionError(fmt::format(
        "the code was compiled for {}, this host is {}", target.triple,
        have.str()));
  FeatureMap host = llvm::sys::getHostCPUFeatures();
  std::string missing;
  for (llvm::StringRef f : llvm::split(llvm::StringRef(target.features), ',')) {
    if (f.size() < 2 || f.front() != '+')
      continue;
    llvm::StringRef name = f.drop_front();
    // Two features the host's detection never reports: x87 comes with every
    // x86-64, 512-bit EVEX with AVX-512F. Any other name the host does not
    // know (a newer LLVM's feature) is missing.
    bool present = name == "x87"       ? true
                   : name == "evex512" ? host.lookup("avx512f")
                                       : host.lookup(name);
    if (!present)
      missing += (missing.empty() ? "" : ", ") + name.str();
  }
  if (!missing.empty())
    return absl::FailedPreconditionError(fmt::format(
        "the code was compiled for CPU '{}' and needs features this host's "
        "CPU '{}' lacks: {}; compile it for this host (the default) or for "
        "a target it can run, such as x86-64-v2",
        target.spec.empty() ? target.cpu : target.spec,
        llvm::sys::getHostCPUName().str(), missing));
  return absl::OkStatus();
}

} // namespace torus::rt
