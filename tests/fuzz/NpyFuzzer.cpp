//===- NpyFuzzer.cpp - libFuzzer target for the .npy reader ---------------===//
//
// Feeds arbitrary bytes to the .npy readers torus-run uses for --input
// (support/Npy.h): both must return a tensor or a Status, never crash,
// hang, over-allocate or trip a sanitizer. A tensor that reads must write
// back and read again to the same tensor.
//
//===----------------------------------------------------------------------===//

#include "support/Npy.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char *>(data), size);
  (void)torus::parseNpyArray(bytes, "fuzz.npy");
  auto tensor = torus::parseNpy(bytes, "fuzz.npy");
  if (!tensor.ok())
    return 0;
  auto again = torus::serializeNpy(*tensor);
  if (!again.ok()) {
    fprintf(stderr, "a .npy that reads does not serialize: %s\n",
            std::string(again.status().message()).c_str());
    __builtin_trap();
  }
  auto back = torus::parseNpy(*again, "again.npy");
  if (!back.ok() || back->spec() != tensor->spec() ||
      back->sizeInBytes() != tensor->sizeInBytes() ||
      (tensor->sizeInBytes() > 0 &&
       std::memcmp(back->rawData(), tensor->rawData(),
                   tensor->sizeInBytes()) != 0)) {
    fprintf(stderr, "a .npy that reads does not write and read back\n");
    __builtin_trap();
  }
  return 0;
}
