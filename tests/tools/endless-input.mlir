// An endless input (/dev/zero) is read up to the largest program the tools
// take, 2 GiB, then refused with exit 2; it used to grow without bound.
// Standard input and pipes are read as before.
// RUN: sh -c 'ulimit -v 4000000; torusc /dev/zero -o /dev/null; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefix=TORUSC
// RUN: sh -c 'ulimit -v 4000000; torus-run /dev/zero; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefix=RUNZERO
// RUN: torusc - --emit=torus < %s | FileCheck %s --check-prefix=STDIN
// RUN: cat %s | torusc - --emit=torus | FileCheck %s --check-prefix=STDIN
// RUN: cat %s | torus-run - | FileCheck %s --check-prefix=PIPED

// TORUSC: torusc: cannot read '/dev/zero': it is larger than 2147483648 bytes, the largest program the tools read
// TORUSC: rc=2
// RUNZERO: torus-run: cannot read '/dev/zero': it is larger than 2147483648 bytes
// RUNZERO: rc=2
// STDIN: func.func @twice
// PIPED: @twice: 1 replica on 1 emulated core

func.func @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = torus.add %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}
