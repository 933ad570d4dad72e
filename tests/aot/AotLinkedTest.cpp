//===- AotLinkedTest.cpp - An AOT object linked into the executable -------===//
//
// Tests the other way to use `torusc --emit=obj`: the object is linked into
// this test like any C object, so the program needs neither the compiler
// nor LLVM. Only the metadata is read at run time (ProgramSpecIO), and the
// entry point is a plain extern "C" function.
//
//===----------------------------------------------------------------------===//

#include "AotTestUtil.h"
#include "runtime/ProgramSpecIO.h"

extern "C" void __torus_entry_step(void **buffers);

namespace {

TEST(AotLinkedTest, RunsTheLinkedObject) {
  auto artifact = torus::rt::readProgramArtifact(std::string(TORUS_AOT_DIR) +
                                                 "/allreduce8.torus.json");
  ASSERT_TRUE(artifact.ok()) << artifact.status();
  ASSERT_EQ(artifact->entrySymbol, "__torus_entry_step");
  torus::rt::Program program{artifact->spec, &__torus_entry_step};
  torus::aot_test::runAndCheck(program);
}

} // namespace
