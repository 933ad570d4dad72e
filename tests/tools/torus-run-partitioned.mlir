// Tests that torus-run runs a partitioned program from global .npy inputs:
// JAX's `jit` of x @ w with NamedShardings on a 4x2 mesh (x split by rows
// over "x", w by columns over "y", the result over both), lowered by JAX
// 0.10 (tests/jax/programs/jit4x2_mp_matmul). Each input is split over the
// 8 partitions by its sharding, every device runs its tile, and the global
// result is joined from the tiles by the result's sharding; both match
// JAX's values, the global result and each device's tile
// (tests/data/partitioned: JAX's out0.npy and out0.device<d>.npy), from
// HLO, from StableHLO and from GSPMD's HLO.
// RUN: rm -rf %t && torus-run %torus_src/tests/jax/programs/jit4x2_mp_matmul/program.hlo --input 0=%torus_src/tests/jax/programs/jit4x2_mp_matmul/in0.npy --input 1=%torus_src/tests/jax/programs/jit4x2_mp_matmul/in1.npy --output-dir=%t --device-outputs | FileCheck %s --check-prefix=HEADER
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/partitioned %t --rtol 1e-4 --atol 1e-5 | FileCheck %s --check-prefix=MATCH
// RUN: rm -rf %t && torus-run %torus_src/tests/jax/programs/jit4x2_mp_matmul/program.stablehlo.mlir %torus_src/tests/jax/programs/jit4x2_mp_matmul/in0.npy %torus_src/tests/jax/programs/jit4x2_mp_matmul/in1.npy --output-dir=%t --device-outputs > /dev/null
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/partitioned %t --rtol 1e-4 --atol 1e-5 | FileCheck %s --check-prefix=MATCH
// RUN: rm -rf %t && torus-run %torus_src/tests/jax/programs/jit4x2_mp_matmul/program.gspmd.hlo %torus_src/tests/jax/programs/jit4x2_mp_matmul/in0.npy %torus_src/tests/jax/programs/jit4x2_mp_matmul/in1.npy --output-dir=%t --device-outputs > /dev/null
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/partitioned %t --rtol 1e-4 --atol 1e-5 | FileCheck %s --check-prefix=MATCH

// HEADER: @main.1: 1 replica x 8 partitions on 8 emulated cores
// HEADER: wrote 1 results x 1 replicas to
// HEADER: wrote 1 results x 8 devices' tiles to
// MATCH: all 128 values match (1 results, 8 device tiles or global results)

// On a TPU slice, the partitions of a replica are placed on its cores by
// --computation-shape.
// RUN: torus-run %torus_src/tests/jax/programs/jit4x2_mp_matmul/program.hlo --topology=v3-8 --computation-shape=2x2x1x2 --print-outputs | FileCheck %s --check-prefix=SLICE
// SLICE: @main.1: 1 replica x 8 partitions on 8 emulated cores of v3-8
// SLICE: replica 0 result 0: f32[8,8]

// Inputs are the global arrays; a tile's shape is an error naming the
// argument and the global shape. --device-outputs needs a partitioned
// program and --output-dir.
// RUN: not torus-run %torus_src/tests/jax/programs/jit4x2_mp_matmul/program.hlo --input 0=%torus_src/tests/data/partitioned/result0.device0.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: torus-run: argument 0 (a.1): expects f32[8,16] (the same for every replica) or f32[1,8,16] (one slice per replica), but {{.*}}result0.device0.npy holds f32[2,4]
// RUN: not torus-run %torus_src/tests/jax/programs/jit4x2_mp_matmul/program.hlo --device-outputs 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: torus-run: --device-outputs needs --output-dir
// RUN: not torus-run %S/Inputs/allreduce8.mlir --replicas=8 --device-outputs 2>&1 | FileCheck %s --check-prefix=UNPARTITIONED
// UNPARTITIONED: torus-run: --device-outputs: the program is not partitioned

// A shard_map over a 4x2 mesh from StableHLO runs as the program of each
// device, which states the global arrays: given the global x (split by
// P("x", "y")), it writes each device's psum over "x" and their join by
// P(None, "y"), JAX's values (tests/jax/programs/smap4x2_psum).
// RUN: rm -rf %t && torus-run %torus_src/tests/jax/programs/smap4x2_psum/program.stablehlo.mlir %torus_src/tests/jax/programs/smap4x2_psum/in0.npy --output-dir=%t 2>&1 | FileCheck %s --check-prefix=SMAP
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/partitioned/smap4x2_psum %t | FileCheck %s --check-prefix=SMAP-MATCH
// SMAP: @main: 8 replicas on 8 emulated cores
// SMAP: wrote 1 results x 8 replicas to
// SMAP: wrote 1 global results (the devices' joined) to
// SMAP-MATCH: all 40 values match (1 results, 1 device tiles or global results)
