// Tests that torus-run refuses corrupt AOT artifacts with exit 1 and a
// message naming the file and what is wrong, before running any code: the
// metadata is checked against the program signature torusc embeds in the
// object, the object against the metadata's object_hash, the entry symbol
// and the device assignment against the mesh. The artifacts are made fresh
// and corrupted here.
// RUN: rm -rf %t && mkdir -p %t
// RUN: torusc %S/Inputs/chain.mlir --emit=obj -o %t/chain.o
// RUN: torusc %S/Inputs/allreduce8.mlir --replicas=8 --topology=v3-8 --emit=obj -o %t/step.o
// RUN: torus-run %t/chain.torus.json --steps=2 | FileCheck %s --check-prefix=GOOD
//
// Declared output smaller than what the code writes (was heap corruption):
// RUN: sed 's/"outputs": \["f32\[64,64\]"\]/"outputs": ["f32[1]"]/' %t/chain.torus.json > %t/out1.torus.json
// RUN: torus-run %t/out1.torus.json --steps=20 > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=OUT1 < %t/out
// Declared input smaller than what the code reads (was exit 0):
// RUN: sed 's/"inputs": \["f32\[64,64\]"\]/"inputs": ["f32[1]"]/' %t/chain.torus.json > %t/in1.torus.json
// RUN: torus-run %t/in1.torus.json > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=IN1 < %t/out
// A huge declared input (was std::bad_alloc):
// RUN: sed 's/"inputs": \["f32\[8,4\]"/"inputs": ["f32[1000000000000,4]"/' %t/step.torus.json > %t/huge.torus.json
// RUN: torus-run %t/huge.torus.json > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=HUGE < %t/out
// A wrong output shape (was exit 0):
// RUN: sed 's/"outputs": \["f32\[4,3\]"/"outputs": ["f32[2,2]"/' %t/step.torus.json > %t/outwrong.torus.json
// RUN: torus-run %t/outwrong.torus.json > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=OUTWRONG < %t/out
// A changed collective (the code's all-reduce is over f32[4,3]):
// RUN: sed 's/"operand": "f32\[4,3\]", "result": "f32\[4,3\]"/"operand": "f32[40,3]", "result": "f32[40,3]"/' %t/step.torus.json > %t/coll.torus.json
// RUN: torus-run %t/coll.torus.json > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=COLL < %t/out
// A core outside the mesh in the device assignment (was exit 0):
// RUN: sed 's/"replica_to_core": \[0, 1, 2, 3, 4, 5, 6, 7\]/"replica_to_core": [0, 1, 2, 3, 4, 5, 6, 99]/' %t/step.torus.json > %t/r2c.torus.json
// RUN: torus-run %t/r2c.torus.json > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=R2C < %t/out
// RUN: sed 's/"replica_to_core": \[0, 1, 2, 3, 4, 5, 6, 7\]/"replica_to_core": [0, 1, 2, 3, 4, 5, 6, 6]/' %t/step.torus.json > %t/r2c2.torus.json
// RUN: torus-run %t/r2c2.torus.json > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=R2CTWICE < %t/out
// An entry symbol the object does not define (was exit 3):
// RUN: sed 's/"entry": "__torus_entry_step"/"entry": "__torus_entry_nope"/' %t/step.torus.json > %t/entry.torus.json
// RUN: torus-run %t/entry.torus.json > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=ENTRY < %t/out
// Metadata without object_hash: the object cannot be verified, so none of
// it is read (was loaded):
// RUN: sed '/object_hash/d' %t/step.torus.json > %t/nohash.torus.json
// RUN: torus-run %t/nohash.torus.json > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=NOHASH < %t/out
// An "object" that is not one (was exit 3):
// RUN: sed -e 's/"object": "step.o"/"object": "step.torus.json"/' %t/step.torus.json > %t/texthash.torus.json
// RUN: torus-run %t/texthash.torus.json > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=HASH < %t/out
// Flipped bytes in the object's code, caught by the hash:
// RUN: cp %t/step.o %t/flip.o && printf '\377\377' | dd of=%t/flip.o bs=1 seek=100 conv=notrunc 2>/dev/null
// RUN: sed 's/"object": "step.o"/"object": "flip.o"/' %t/step.torus.json > %t/flip.torus.json
// RUN: torus-run %t/flip.torus.json > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=HASH < %t/out
// Behind the hash, with metadata rewritten to match the damaged object
// (tests/tools/object_hash.py): the object reader and the relocation check
// still refuse what the JIT's linker would trust. A text file, flipped
// bytes in a section header, and a relocation moved 1 GB outside its
// section (was a SIGSEGV in the linker, found by AotArtifactFuzzer):
// RUN: sed -e 's/"object": "step.o"/"object": "step.torus.json"/' -e "s/fnv1a64:[0-9a-f]*/$(python3 %torus_src/tests/tools/object_hash.py %t/step.torus.json)/" %t/step.torus.json > %t/text.torus.json
// RUN: torus-run %t/text.torus.json > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=TEXT < %t/out
// RUN: cp %t/step.o %t/flip2.o && printf '\377\377\377\377\377\377\377\377' | dd of=%t/flip2.o bs=1 seek=40 conv=notrunc 2>/dev/null
// RUN: sed -e 's/"object": "step.o"/"object": "flip2.o"/' -e "s/fnv1a64:[0-9a-f]*/$(python3 %torus_src/tests/tools/object_hash.py %t/flip2.o)/" %t/step.torus.json > %t/flip2.torus.json
// RUN: torus-run %t/flip2.torus.json > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=FLIP < %t/out
// RUN: python3 %torus_src/tests/tools/corrupt_elf_relocation.py %t/step.o %t/reloc.o
// RUN: sed -e 's/"object": "step.o"/"object": "reloc.o"/' -e "s/fnv1a64:[0-9a-f]*/$(python3 %torus_src/tests/tools/object_hash.py %t/reloc.o)/" %t/step.torus.json > %t/reloc.torus.json
// RUN: torus-run %t/reloc.torus.json > %t/out 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=RELOC < %t/out

// GOOD: step 1:
// OUT1: out1.torus.json: the metadata does not match its object file {{.*}}chain.o: 'program.outputs' is [f32[1]] in the metadata but the code was compiled for [f32[64,64]]
// IN1: in1.torus.json: the metadata does not match its object file {{.*}}chain.o: 'program.inputs' is [f32[1]] in the metadata but the code was compiled for [f32[64,64]]
// HUGE: huge.torus.json: the metadata does not match its object file {{.*}}step.o: 'program.inputs' is [f32[1000000000000,4],f32[4,3]] in the metadata but the code was compiled for [f32[8,4],f32[4,3]]
// OUTWRONG: 'program.outputs' is [f32[2,2],f32[8,3],f32[8,3]] in the metadata but the code was compiled for [f32[4,3],f32[8,3],f32[8,3]]
// COLL: coll.torus.json: the metadata does not match its object file {{.*}}step.o: 'program.collectives' is 3 {{[0-9a-f]+}} in the metadata but the code was compiled for 3 {{[0-9a-f]+}}
// R2C: r2c.torus.json: 'device_assignment.replica_to_core' puts replica 7 on core 99, but v3-8 has cores 0 to 7
// R2CTWICE: r2c2.torus.json: 'device_assignment.replica_to_core' puts replicas 6 and 7 on core 6
// ENTRY: step.o: the object file defines no symbol '__torus_entry_nope', the 'entry' of {{.*}}entry.torus.json
// NOHASH: nohash.torus.json: no 'object_hash', so its object file {{.*}}step.o cannot be verified before its code is loaded (written by an older torusc?); recompile with torusc --emit=obj
// TEXT: step.torus.json: not a valid object file: The file was not recognized as a valid object file
// HASH: the object file does not match its metadata {{.*}}: its hash is fnv1a64:{{[0-9a-f]+}}, 'object_hash' records fnv1a64:{{[0-9a-f]+}} (the object was corrupted or replaced; recompile with torusc --emit=obj)
// FLIP: flip2.o: {{not a valid object file|bad symbol table}}: {{.+}}
// RELOC: reloc.o: relocation 0 of '.rela.{{[a-z.]+}}' writes {{[0-9]+}} bytes at offset 1023412415, outside the {{[0-9]+}} bytes of the section it applies to
