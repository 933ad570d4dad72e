//===- JsonFuzzer.cpp - libFuzzer target for the JSON readers -------------===//
//
// Feeds arbitrary bytes to both JSON readers: the AOT metadata reader
// (programArtifactFromJson, runtime/ProgramSpecIO.h, nlohmann::json) and
// TF_CONFIG (TFConfigClusterResolver, llvm::json). Each must return a value
// or a Status, never crash (deep nesting overflowed llvm::json's stack),
// hang or trip a sanitizer. Metadata that reads must write and read back to
// the same text.
//
//===----------------------------------------------------------------------===//

#include "runtime/ProgramSpecIO.h"
#include "torus/distribute/ClusterResolver.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);

  auto artifact = torus::rt::programArtifactFromJson(text);
  if (artifact.ok()) {
    std::string once = torus::rt::programArtifactToJson(*artifact);
    auto back = torus::rt::programArtifactFromJson(once);
    if (!back.ok() || torus::rt::programArtifactToJson(*back) != once) {
      fprintf(stderr, "metadata that reads does not read back:\n%s\n",
              once.c_str());
      __builtin_trap();
    }
  }
  (void)torus::rt::programSpecFromJson(text);

  // An environment variable ends at the first NUL.
  setenv("TF_CONFIG", text.c_str(), 1);
  torus::distribute::TFConfigClusterResolver resolver;
  (void)resolver.clusterSpec();
  (void)resolver.taskType();
  (void)resolver.taskId();
  (void)resolver.master();
  (void)resolver.numAccelerators();
  return 0;
}
