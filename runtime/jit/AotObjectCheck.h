//===- AotObjectCheck.h - An AOT object checked against its metadata -*- C++ -*-===//
//
// The metadata (`step.torus.json`) tells the runtime the sizes of the
// buffers it hands the code; the code itself knows only what it was
// compiled for. Before any of it is loaded or run, the object is checked:
// its bytes against the metadata's `object_hash` (required: the JIT's
// linker trusts an object's structure, so none of it is parsed before the
// hash matches), that it is an x86-64 ELF object LLVM reads whose
// relocations stay inside their sections, that it defines the metadata's
// entry symbol, and that the signature the compiler embedded (programSignature, ProgramSpec.h) is the
// metadata's program. Every mismatch is InvalidArgument naming the files
// and the field.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_JIT_AOTOBJECTCHECK_H
#define TORUS_RUNTIME_JIT_AOTOBJECTCHECK_H

#include "runtime/ProgramSpecIO.h"
#include "torus/Status.h"

#include <string>
#include <string_view>

namespace torus::rt {

/// Checks the object file's `bytes` (named `objectName` in errors) against
/// `artifact`, the metadata read from `metadataName`.
absl::Status checkAotObject(std::string_view bytes,
                            const std::string &objectName,
                            const std::string &metadataName,
                            const ProgramArtifact &artifact);

} // namespace torus::rt

#endif // TORUS_RUNTIME_JIT_AOTOBJECTCHECK_H
