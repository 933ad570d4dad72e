// Brackets nested tens of thousands deep overflowed MLIR's recursive
// parser (SIGSEGV). Every reader checks the nesting first (at most 1000
// deep) and reports the first bracket too deep as file:line:col, exit 1.
// RUN: python3 -c "import sys; sys.stdout.write('func.func private @f(' + '('*30000 + '\n')" > %t.paren.mlir
// RUN: not torusc %t.paren.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=PAREN
// RUN: torusc %t.paren.mlir -o /dev/null; test $? -eq 1
// RUN: not torus-run %t.paren.mlir 2>&1 | FileCheck %s --check-prefix=PAREN
// RUN: torus-run %t.paren.mlir; test $? -eq 1
// RUN: python3 -c "import sys; sys.stdout.write('func.func private @f(' + 'tuple<'*30000 + '\n')" > %t.tuple.mlir
// RUN: not torusc %t.tuple.mlir 2>&1 | FileCheck %s --check-prefix=TUPLE
// RUN: cat %t.tuple.mlir | not torusc - 2>&1 | FileCheck %s --check-prefix=STDIN
// StableHLO text takes its own reader.
// RUN: python3 -c "import sys; sys.stdout.write('func.func @main(%%x: tensor<f32>) -> tensor<f32> {\n  %%0 = stablehlo.add %%x, %%x : ' + '('*30000 + '\n')" > %t.stablehlo.mlir
// RUN: not torusc %t.stablehlo.mlir 2>&1 | FileCheck %s --check-prefix=STABLEHLO
// 1000 deep is within the limit: MLIR's own error, no crash.
// RUN: python3 -c "import sys; sys.stdout.write('func.func private @f(' + '('*999 + '\n')" > %t.limit.mlir
// RUN: not torusc %t.limit.mlir 2>&1 | FileCheck %s --check-prefix=LIMIT
// Brackets in strings and comments do not count.
// RUN: python3 -c "import sys; sys.stdout.write('// ' + '('*5000 + '\nfunc.func @f(%%x: tensor<f32> {torus.note = \"' + '['*5000 + '\"}) -> tensor<f32> {\n  return %%x : tensor<f32>\n}\n')" > %t.strings.mlir
// RUN: torusc %t.strings.mlir --emit=torus | FileCheck %s --check-prefix=STRINGS
// HLO text: tuple shapes and nested attribute braces.
// RUN: python3 -c "import sys; sys.stdout.write('HloModule m\nENTRY e {\n  ROOT p = ' + '('*30000 + 'f32[] parameter(0)\n}\n')" > %t.tuple.hlo
// RUN: not torusc %t.tuple.hlo 2>&1 | FileCheck %s --check-prefix=HLOTUPLE
// RUN: python3 -c "import sys; sys.stdout.write('HloModule m\nENTRY e {\n  ROOT p = f32[] parameter(0), sharding=' + '{'*30000 + '}'*30000 + '\n}\n')" > %t.braces.hlo
// RUN: not torusc %t.braces.hlo 2>&1 | FileCheck %s --check-prefix=HLOBRACES

// PAREN: paren.mlir:1:1021: error: brackets nested more than 1000 deep; Torus reads no deeper nesting
// TUPLE: tuple.mlir:1:{{[0-9]+}}: error: brackets nested more than 1000 deep
// STDIN: <stdin>:1:{{[0-9]+}}: error: brackets nested more than 1000 deep
// STABLEHLO: stablehlo.mlir:2:{{[0-9]+}}: error: brackets nested more than 1000 deep
// LIMIT: limit.mlir:1:1021: error: expected non-function type
// LIMIT-NOT: nested more than
// STRINGS: func.func @f
// HLOTUPLE: tuple.hlo:3:{{[0-9]+}}: error: shape nested too deeply
// HLOBRACES: braces.hlo:3:{{[0-9]+}}: error:
// An HLO constant nests one '{' per dimension: shapes have at most 64.
// RUN: python3 -c "import sys; sys.stdout.write('HloModule m\nENTRY e {\n  ROOT c = f32[' + ','.join(['1']*30000) + '] constant(' + '{'*30000 + '1' + '}'*30000 + ')\n}\n')" > %t.rank.hlo
// RUN: not torusc %t.rank.hlo 2>&1 | FileCheck %s --check-prefix=HLORANK
// HLORANK: rank.hlo:3:{{[0-9]+}}: error: shape has more than 64 dimensions
