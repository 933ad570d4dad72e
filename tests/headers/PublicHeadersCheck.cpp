// Compiled with only include/ and abseil on the include path (see
// cmake/TorusInstall.cmake): the public API needs no MLIR or LLVM headers.
#include <torus/Torus.h>

int torusPublicHeadersCompile() { return 0; }
