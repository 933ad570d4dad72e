// A full disk or a closed stdout is an I/O error (exit 2) with a message
// naming the output, never LLVM's "IO failure on output stream" abort.
// RUN: not torusc %s --emit=asm -o /dev/full 2>&1 | FileCheck %s --check-prefix=ASM
// RUN: torusc %s --emit=asm -o /dev/full; test $? -eq 2
// RUN: torusc %s --emit=llvm -o /dev/full; test $? -eq 2
// RUN: torusc %s --emit=hlo -o /dev/full; test $? -eq 2
// RUN: torusc %s --emit=obj -o /dev/full; test $? -eq 2
// RUN: torusc %s --emit=torus > /dev/full 2>%t.stdout.err; test $? -eq 2
// RUN: FileCheck %s --check-prefix=STDOUT < %t.stdout.err
// RUN: torusc %s --print-pipeline > /dev/full; test $? -eq 2
// RUN: torus-run %s > /dev/full 2>%t.run.err; test $? -eq 2
// RUN: FileCheck %s --check-prefix=RUNERR < %t.run.err

// ASM: torusc: cannot write '/dev/full': No space left on device
// ASM-NOT: LLVM ERROR
// STDOUT: torusc: cannot write standard output: No space left on device
// RUNERR: torus-run: cannot write standard output: No space left on device

func.func @main(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %a = torus.dot_general %x, %x, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}
