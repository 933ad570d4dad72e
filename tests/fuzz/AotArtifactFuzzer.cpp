//===- AotArtifactFuzzer.cpp - libFuzzer target for the AOT loader --------===//
//
// Feeds an arbitrary metadata file and object to the checks an AOT program
// goes through before any of its code is loaded (checkAotObject,
// runtime/jit/AotObjectCheck.h) and, when they pass, to the JIT's object
// loader and the entry lookup (never calling the code). Each must return a
// Status, never crash, hang or trip a sanitizer.
//
// The input is the metadata text, a NUL byte, and the object's bytes (see
// tests/fuzz/corpus/aot, made by scripts/fuzz.sh from torusc's output).
// The metadata's object_hash is kept: the loader requires it and reads no
// byte of an object that does not match it, because the JIT's linker
// (LLVM's JITLink) trusts an object's structure. Damaged objects thus stop
// at the hash, and mutated metadata reaches every check behind it. (With
// the hash dropped, as this fuzzer once did, it found two crashes inside
// JITLink: a relocation offset, now also checked, and an unwind-table
// pointer encoding; an object forged to match its hash is arbitrary code
// anyway, which loading it would run.)
//
//===----------------------------------------------------------------------===//

#include "runtime/ProgramSpecIO.h"
#include "runtime/RuntimeAbi.h"
#include "runtime/jit/AotObjectCheck.h"
#include "runtime/jit/JitModule.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view input(reinterpret_cast<const char *>(data), size);
  size_t split = input.find('\0');
  if (split == std::string_view::npos)
    return 0;
  auto artifact =
      torus::rt::programArtifactFromJson(input.substr(0, split));
  if (!artifact.ok())
    return 0;
  std::string object(input.substr(split + 1));
  if (!torus::rt::checkAotObject(object, "fuzz.o", "fuzz.torus.json",
                                 *artifact)
           .ok())
    return 0;
  torus::rt::JitOptions options;
  options.symbols = torus::rt::runtimeAbiSymbols();
  auto code = torus::rt::JitModule::loadObject(object, "fuzz.o", options);
  if (code.ok())
    (void)(*code)->lookup(artifact->entrySymbol);
  return 0;
}
