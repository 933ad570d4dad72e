// Tests torusc's CPU target: --target-cpu takes an x86-64 level or a CPU
// name, --target-features adds or removes features, TORUS_TARGET is the
// default, the object's metadata records the target, and bad names are
// usage errors that say what is expected.
// RUN: torusc %S/Inputs/chain.mlir --target-cpu=x86-64-v3 --emit=asm | FileCheck %s --check-prefix=V3ASM
// RUN: torusc %S/Inputs/chain.mlir --target-cpu=x86-64-v2 --emit=asm | FileCheck %s --check-prefix=V2ASM
// RUN: torusc %S/Inputs/no_groups.mlir --target-cpu=x86-64-v4 --target-features=+avx512bf16 --emit=obj -o %t.o && FileCheck %s --check-prefix=V4META < %t.torus.json
// RUN: env TORUS_TARGET=znver1 torusc %S/Inputs/no_groups.mlir --emit=obj -o %t.z.o && FileCheck %s --check-prefix=ZNVER1 < %t.z.torus.json
// RUN: env TORUS_TARGET=x86-64-v2 torusc --version | FileCheck %s --check-prefix=VERSION
// RUN: not torusc %S/Inputs/no_groups.mlir --target-cpu=pentium9 2>&1 | FileCheck %s --check-prefix=BADCPU
// RUN: not torusc %S/Inputs/no_groups.mlir --target-cpu=x86-64-v3 --target-features=+avx9000 2>&1 | FileCheck %s --check-prefix=BADFEATURE
// RUN: not torusc %S/Inputs/no_groups.mlir --target-cpu=x86-64-v3 --target-features=avx2 2>&1 | FileCheck %s --check-prefix=NOSIGN
// RUN: not torusc %S/Inputs/no_groups.mlir --target-features=+fma 2>&1 | FileCheck %s --check-prefix=NOCPU
// RUN: torusc %S/Inputs/no_groups.mlir --target-cpu=pentium9; test $? -eq 2

// v3 has 256-bit ymm registers and no zmm; v2 neither.
// V3ASM: ymm
// V3ASM-NOT: zmm
// V2ASM-NOT: {{ymm|zmm}}
// V4META: "target": {"triple": "x86_64{{.*}}", "cpu": "x86-64-v4", "features": "{{.*}}+avx512bf16,{{.*}}+avx512f,
// ZNVER1: "cpu": "znver1"
// VERSION: default target: x86-64-v2 (x86-64-v2, 128-bit vectors)
// VERSION: host CPU:
// BADCPU: torusc: --target-cpu: unknown x86-64 CPU 'pentium9': expected host, an ISA level (x86-64, x86-64-v2, x86-64-v3, x86-64-v4) or a CPU name
// BADFEATURE: torusc: --target-cpu: unknown CPU feature 'avx9000'
// NOSIGN: torusc: --target-cpu: bad CPU feature 'avx2': expected +name or -name
// NOCPU: torusc: --target-features modifies a CPU: give --target-cpu too
