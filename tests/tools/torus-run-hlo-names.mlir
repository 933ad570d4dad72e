// Tests that the HLO export keeps the arguments' names (%x -> parameter x),
// so that torus-run runs the exported program with --input x=... as it ran
// the source, equal to NumPy's results (tests/data/make_allreduce8.py); the
// HLO read back and exported again keeps them, and a name the program lacks
// is listed against the exported names. A traced module printed with its
// names (Inputs/traced_named.mlir, as toString() and the API's dumps print
// it) exports them too, and its C++ lines become HLO metadata.
// RUN: rm -rf %t && mkdir -p %t
// RUN: torusc %S/Inputs/allreduce8.mlir --emit=hlo -o %t/step.hlo
// RUN: FileCheck %s --check-prefix=HLO < %t/step.hlo
// RUN: torus-run %t/step.hlo --replicas=8 --input w=%torus_src/tests/data/allreduce8/w.npy --input x=%torus_src/tests/data/allreduce8/x.npy --output-dir=%t/out > /dev/null
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/allreduce8/expected %t/out | FileCheck %s --check-prefix=MATCH
// RUN: torusc %t/step.hlo --emit=hlo | diff %t/step.hlo -
// RUN: torusc %S/Inputs/traced_named.mlir --emit=hlo | FileCheck %s --check-prefix=TRACED
// RUN: not torus-run %t/step.hlo --replicas=8 --input y=%torus_src/tests/data/allreduce8/x.npy 2>&1 | FileCheck %s --check-prefix=NAME

// HLO: ENTRY %step (x: f32[8,4], w: f32[4,3]) -> (f32[4,3], f32[8,3], f32[8,3]) {
// HLO-NEXT: %x = f32[8,4]{1,0} parameter(0)
// HLO-NEXT: %w = f32[4,3]{1,0} parameter(1)
// HLO-NEXT: dot(f32[8,4]{1,0} %x, f32[4,3]{1,0} %w)
// MATCH: all 480 values match (3 results)
// NAME: torus-run: --input y={{.*}}: @step has no argument 'y' (arguments: x, w)
// TRACED: ENTRY %step (x: f32[8,4], w: f32[4,3]) -> f32[8,3] {
// TRACED-NEXT: %x = f32[8,4]{1,0} parameter(0)
// TRACED-NEXT: %w = f32[4,3]{1,0} parameter(1)
// TRACED-NEXT: ROOT %dot.{{[0-9]+}} = f32[8,3]{1,0} dot(f32[8,4]{1,0} %x, f32[4,3]{1,0} %w), lhs_contracting_dims={1}, rhs_contracting_dims={0}, metadata={source_file="model.cpp" source_line=14}
