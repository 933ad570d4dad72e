//===- CpuTargetTest.cpp - Naming, resolving and checking CPU targets -----===//

#include "runtime/jit/CpuTarget.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

namespace torus::rt {
namespace {

using ::testing::HasSubstr;

CpuTarget resolved(std::string_view cpu, std::string_view features = "") {
  auto target = resolveCpuTarget(cpu, features);
  EXPECT_TRUE(target.ok()) << target.status();
  return target.ok() ? *target : CpuTarget{};
}

/// Restores TORUS_TARGET when a test is done with it.
class ScopedTargetEnv {
public:
  explicit ScopedTargetEnv(const char *value) {
    if (const char *old = std::getenv("TORUS_TARGET"))
      old_ = old;
    if (value)
      setenv("TORUS_TARGET", value, 1);
    else
      unsetenv("TORUS_TARGET");
  }
  ~ScopedTargetEnv() {
    if (old_)
      setenv("TORUS_TARGET", old_->c_str(), 1);
    else
      unsetenv("TORUS_TARGET");
  }

private:
  std::optional<std::string> old_;
};

TEST(CpuTargetTest, LevelsAndCpusHaveTheirFeaturesAndWidths) {
  CpuTarget v2 = resolved("x86-64-v2"), v3 = resolved("x86-64-v3"),
            v4 = resolved("x86-64-v4");
  EXPECT_EQ(v2.cpu, "x86-64-v2");
  EXPECT_TRUE(v2.hasFeature("sse4.2"));
  EXPECT_TRUE(v2.hasFeature("sse2")); // implied, not listed by the level
  EXPECT_FALSE(v2.hasFeature("avx"));
  EXPECT_EQ(v2.vectorBits(), 128);
  EXPECT_TRUE(v3.hasFeature("avx2") && v3.hasFeature("fma") &&
              v3.hasFeature("f16c"));
  EXPECT_FALSE(v3.hasFeature("avx512f"));
  EXPECT_EQ(v3.vectorBits(), 256);
  EXPECT_TRUE(v4.hasFeature("avx512f") && v4.hasFeature("avx512bw"));
  EXPECT_FALSE(v4.hasFeature("avx512bf16"));
  EXPECT_EQ(v4.vectorBits(), 512);
  EXPECT_EQ(resolved("znver1").vectorBits(), 256);
  EXPECT_EQ(resolved("haswell").vectorBits(), 256);
  CpuTarget spr = resolved("sapphirerapids");
  EXPECT_TRUE(spr.hasFeature("avx512bf16") && spr.hasFeature("avx512fp16"));
  EXPECT_EQ(spr.vectorBits(), 512);
}

TEST(CpuTargetTest, FeaturesAddAndRemoveWithWhatTheyImply) {
  CpuTarget bf16 = resolved("x86-64-v3", "+avx512bf16");
  EXPECT_TRUE(bf16.hasFeature("avx512bf16"));
  EXPECT_TRUE(bf16.hasFeature("avx512f")); // implied
  EXPECT_EQ(bf16.vectorBits(), 512);
  CpuTarget noAvx2 = resolved("x86-64-v4", "-avx2");
  EXPECT_FALSE(noAvx2.hasFeature("avx2"));
  EXPECT_FALSE(noAvx2.hasFeature("avx512f")); // needs AVX2
  EXPECT_EQ(noAvx2.vectorBits(), 128);
  EXPECT_EQ(resolved("x86-64-v3", "-fma").vectorBits(), 128);
  // One feature set, one spelling: the cache key does not depend on order.
  EXPECT_EQ(resolved("x86-64-v2", "+avx2,+fma"),
            resolved("x86-64-v2", "+fma,+avx2"));
  EXPECT_EQ(resolved("x86-64-v4", "+avx512bf16").spec,
            "x86-64-v4,+avx512bf16");
}

TEST(CpuTargetTest, BadNamesAreInvalidArguments) {
  auto cpu = resolveCpuTarget("pentium9");
  EXPECT_EQ(cpu.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(cpu.status().message()),
              HasSubstr("unknown x86-64 CPU 'pentium9'"));
  // 32-bit only.
  EXPECT_FALSE(resolveCpuTarget("i386").ok());
  auto feature = resolveCpuTarget("x86-64-v3", "+avx9000");
  EXPECT_THAT(std::string(feature.status().message()),
              HasSubstr("unknown CPU feature 'avx9000'"));
  auto sign = resolveCpuTarget("x86-64-v3", "avx2");
  EXPECT_THAT(std::string(sign.status().message()),
              HasSubstr("bad CPU feature 'avx2': expected +name or -name"));
  auto spec = parseCpuTarget("x86-64-v9,+avx2");
  EXPECT_THAT(std::string(spec.status().message()),
              HasSubstr("target 'x86-64-v9,+avx2': unknown x86-64 CPU"));
}

TEST(CpuTargetTest, TheDefaultIsTheHostOrTorusTarget) {
  {
    ScopedTargetEnv env(nullptr);
    auto host = hostCpuTarget();
    ASSERT_TRUE(host.ok()) << host.status();
    EXPECT_EQ(host->cpu, llvm::sys::getHostCPUName().str());
    EXPECT_EQ(*defaultCpuTarget(), *host);
    EXPECT_EQ(*resolveCpuTarget("host"), *host);
    EXPECT_EQ(defaultCpuTarget("x86-64-v2")->cpu, "x86-64-v2");
  }
  {
    ScopedTargetEnv env("x86-64-v4,+avx512fp16");
    auto target = defaultCpuTarget();
    ASSERT_TRUE(target.ok()) << target.status();
    EXPECT_EQ(target->cpu, "x86-64-v4");
    EXPECT_TRUE(target->hasFeature("avx512fp16"));
    // An explicit target wins over the environment.
    EXPECT_EQ(defaultCpuTarget("x86-64-v2")->cpu, "x86-64-v2");
  }
  {
    ScopedTargetEnv env("bogus");
    auto target = defaultCpuTarget();
    EXPECT_EQ(target.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(target.status().message()),
                HasSubstr("TORUS_TARGET: target 'bogus': unknown x86-64 CPU"));
  }
}

TEST(CpuTargetTest, HostCanRunItsOwnCodeAndNamesWhatItLacks) {
  EXPECT_TRUE(checkHostCanRun(*hostCpuTarget()).ok());
  EXPECT_TRUE(checkHostCanRun(resolved("x86-64")).ok());
  // A feature this host lacks: every x86-64 CPU lacks one of these.
  llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
  std::string lacking;
  for (const char *f : {"avx512fp16", "amx-tile", "sse4a", "avx512f"})
    if (host.count(f) && !host.lookup(f)) {
      lacking = f;
      break;
    }
  ASSERT_FALSE(lacking.empty()) << "this host has every probed feature";
  CpuTarget needs = resolved("x86-64", "+" + lacking);
  absl::Status status = checkHostCanRun(needs);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("needs features this host's CPU"));
  EXPECT_THAT(std::string(status.message()), HasSubstr(lacking));
  CpuTarget other = needs;
  other.triple = "aarch64-unknown-linux-gnu";
  EXPECT_THAT(std::string(checkHostCanRun(other).message()),
              HasSubstr("the code was compiled for aarch64-unknown-linux-gnu"));
}

} // namespace
} // namespace torus::rt
