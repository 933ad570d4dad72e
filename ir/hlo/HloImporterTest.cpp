//===- HloImporterTest.cpp - Tests for HLO text import and export ---------===//
//
// The importer and exporter through their C++ API: what a module becomes,
// that errors name the token and its line:column, that import∘export is
// stable, and that no input crashes the reader. The lit tests in test/
// cover the same through torusc, file by file.
//
//===----------------------------------------------------------------------===//

#include "ir/DiagnosticCollector.h"
#include "ir/Sharding.h"
#include "ir/TorusOps.h"
#include "ir/hlo/HloExport.h"
#include "ir/hlo/HloImport.h"
#include "ir/hlo/HloOpInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <set>

namespace mlir::torus::hlo {
namespace {

class HloTest : public ::testing::Test {
protected:
  HloTest() {
    DialectRegistry registry;
    registry.insert<TorusDialect, func::FuncDialect>();
    context_.appendDialectRegistry(registry);
    context_.loadAllAvailableDialects();
  }

  /// Imports `text`; on failure returns null and leaves the diagnostics in
  /// `errors_`.
  OwningOpRef<ModuleOp> import(llvm::StringRef text) {
    DiagnosticCollector diags(&context_);
    auto module = importHloText(text, "test.hlo", &context_);
    errors_ = diags.take();
    if (module && failed(verify(*module))) {
      errors_ = diags.take();
      return nullptr;
    }
    return module;
  }

  std::string exportText(ModuleOp module) {
    DiagnosticCollector diags(&context_);
    std::string text;
    llvm::raw_string_ostream os(text);
    if (failed(exportHloText(module, os)))
      return "export failed: " + diags.take();
    return text;
  }

  std::string print(ModuleOp module) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module.print(os);
    return text;
  }

  /// Checks that importing `text` and exporting it, then importing and
  /// exporting the result, gives the same text twice.
  void expectStable(llvm::StringRef text) {
    auto first = import(text);
    ASSERT_TRUE(first) << errors_;
    std::string once = exportText(*first);
    auto second = import(once);
    ASSERT_TRUE(second) << errors_ << "\n" << once;
    std::string twice = exportText(*second);
    EXPECT_EQ(once, twice);
  }

  MLIRContext context_;
  std::string errors_;
};

constexpr const char *kAxpy = R"(
HloModule axpy_module, entry_computation_layout={(f32[], f32[2,4]{1,0}, f32[2,4]{1,0})->f32[2,4]{1,0}}

ENTRY %axpy.v5 (alpha: f32[], x: f32[2,4], y: f32[2,4]) -> f32[2,4] {
  %alpha = f32[] parameter(0)
  %broadcast = f32[2,4]{1,0} broadcast(f32[] %alpha), dimensions={}
  %x = f32[2,4]{1,0} parameter(1)
  %multiply = f32[2,4]{1,0} multiply(f32[2,4]{1,0} %broadcast, f32[2,4]{1,0} %x)
  %y = f32[2,4]{1,0} parameter(2)
  ROOT %add = f32[2,4]{1,0} add(f32[2,4]{1,0} %multiply, f32[2,4]{1,0} %y)
}
)";

TEST_F(HloTest, ImportsLongForm) {
  auto module = import(kAxpy);
  ASSERT_TRUE(module) << errors_;
  EXPECT_EQ(module->getSymName(), "axpy_module");
  auto fn = module->lookupSymbol<func::FuncOp>("axpy.v5");
  ASSERT_TRUE(fn);
  EXPECT_TRUE(fn.isPublic());
  EXPECT_EQ(fn.getNumArguments(), 3u);
  EXPECT_EQ(fn.getNumResults(), 1u);
  std::string text = print(*module);
  EXPECT_NE(text.find("torus.broadcast_in_dim"), std::string::npos) << text;
  EXPECT_NE(text.find("torus.multiply"), std::string::npos) << text;
  EXPECT_NE(text.find("torus.add"), std::string::npos) << text;
}

TEST_F(HloTest, ImportsShortFormInAnyOrder) {
  // Short form, computations without signatures, a use before its
  // definition and a reducer defined after its user.
  auto module = import(R"(
HloModule short
ENTRY main {
  ROOT r = f32[8] reduce(in, zero), dimensions={1}, to_apply=add_f32
  in = f32[8,16] parameter(0)
  zero = f32[] constant(0)
}
add_f32 {
  lhs = f32[] parameter(0)
  rhs = f32[] parameter(1)
  ROOT add = f32[] add(lhs, rhs)
}
)");
  ASSERT_TRUE(module) << errors_;
  std::string text = print(*module);
  EXPECT_NE(text.find("torus.reduce sum"), std::string::npos) << text;
  // The init constant was the identity: nothing else is left.
  EXPECT_EQ(text.find("torus.constant"), std::string::npos) << text;
}

TEST_F(HloTest, ReadsHeaderCountsAndArgumentNames) {
  auto module = import(R"(
HloModule m, replica_count=8, num_partitions=2
ENTRY e {
  weights = f32[4] parameter(0)
  ROOT n = f32[4] negate(weights)
}
)");
  ASSERT_TRUE(module) << errors_;
  EXPECT_EQ((*module)->getAttrOfType<IntegerAttr>(kNumReplicasAttrName).getInt(),
            8);
  EXPECT_EQ((*module)->getAttrOfType<IntegerAttr>(kNumPartitionsAttrName).getInt(),
            2);
  auto fn = module->lookupSymbol<func::FuncOp>("e");
  auto name = dyn_cast<NameLoc>(fn.getArgument(0).getLoc());
  ASSERT_TRUE(name);
  EXPECT_EQ(name.getName().getValue(), "weights");
}

TEST_F(HloTest, ErrorsNameTheTokenAndItsPosition) {
  struct Case {
    const char *text;
    const char *error;
  };
  const Case cases[] = {
      {"HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT f = f32[4] "
       "cholesky(p)\n}\n",
       "test.hlo:4:19: error: unsupported HLO opcode 'cholesky'"},
      {"HloModule m\nENTRY e {\n  ROOT p = f32[4]{0,1} parameter(0)\n}\n",
       "test.hlo:3:18: error: layout {0,1} of f32[4] is not an order of its 1 dimensions"},
      {"HloModule m\nENTRY e {\n  ROOT p = f8e4m3b11fnuz[4] parameter(0)\n}\n",
       "test.hlo:3:12: error: unsupported element type 'f8e4m3b11fnuz'"},
      {"HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT a = f32[4] "
       "add(p)\n}\n",
       "test.hlo:4:19: error: 'add' takes 2 operands, found 1"},
      {"HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT a = f32[4] "
       "add(p, q)\n}\n",
       "test.hlo:4:26: error: use of undefined value 'q'"},
      {"HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT a = f32[4] "
       "negate(p), foo=1\n}\n",
       "test.hlo:4:30: error: unsupported attribute 'foo' of 'negate'"},
      {"HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT a = f32[4] "
       "add(f32[8] p, p)\n}\n",
       "test.hlo:4:30: error: operand 'p' is written as f32[8] but 'p' is "
       "f32[4]"},
  };
  for (const Case &c : cases) {
    EXPECT_FALSE(import(c.text)) << c.text;
    EXPECT_NE(errors_.find(c.error), std::string::npos)
        << "expected: " << c.error << "\ngot: " << errors_;
  }
}

TEST_F(HloTest, RejectsUnknownReducerNamingItsLine) {
  EXPECT_FALSE(import(R"(HloModule m
sub {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] subtract(a, b)
}
ENTRY e {
  p = f32[4] parameter(0)
  z = f32[] constant(0)
  ROOT r = f32[4] all-reduce(p), replica_groups={}, to_apply=sub
}
)"));
  EXPECT_NE(errors_.find("test.hlo:10:62: error: unsupported reducer "
                         "computation 'sub' (line 2) of 'all-reduce'"),
            std::string::npos)
      << errors_;
}

TEST_F(HloTest, RecognisesArgmaxComparators) {
  // JAX's argmax comparator (NaN-aware, ties to the lower index).
  auto module = import(R"(HloModule m
argmax {
  a = f32[] parameter(0)
  ai = s32[] parameter(1)
  b = f32[] parameter(2)
  bi = s32[] parameter(3)
  gt = pred[] compare(a, b), direction=GT
  nan = pred[] compare(a, a), direction=NE
  pick = pred[] or(gt, nan)
  eq = pred[] compare(a, b), direction=EQ
  lt = pred[] compare(ai, bi), direction=LT
  tie = pred[] and(eq, lt)
  pickidx = pred[] or(pick, tie)
  v = f32[] select(pick, a, b)
  i = s32[] select(pickidx, ai, bi)
  ROOT t = (f32[], s32[]) tuple(v, i)
}
ENTRY e {
  x = f32[4,8] parameter(0)
  iota = s32[4,8] iota(), iota_dimension=1
  ninf = f32[] constant(-inf)
  zero = s32[] constant(0)
  r = (f32[4], s32[4]) reduce(x, iota, ninf, zero), dimensions={1}, to_apply=argmax
  ROOT idx = s32[4] get-tuple-element(r), index=1
}
)");
  ASSERT_TRUE(module) << errors_;
  std::string text = print(*module);
  EXPECT_NE(text.find("torus.argmax"), std::string::npos) << text;
  EXPECT_EQ(text.find("torus.iota"), std::string::npos) << text;
}

TEST_F(HloTest, TranslatesCollectiveGroupModes) {
  // With 2 replicas of 2 partitions, cross-replica groups {0,1} become the
  // devices of each partition: {0,2} and {1,3}.
  auto module = import(R"(HloModule m, replica_count=2, num_partitions=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p = f32[4] parameter(0)
  ROOT r = f32[4] all-reduce(p), replica_groups={{0,1}}, to_apply=add
}
)");
  ASSERT_TRUE(module) << errors_;
  std::string text = print(*module);
  EXPECT_NE(text.find("dense<[[0, 2], [1, 3]]>"), std::string::npos) << text;
}

TEST_F(HloTest, ExpandsMeshReplicaGroups) {
  // XLA:CPU's optimized HLO: groups along mesh axes, devices row-major.
  auto module = import(R"(HloModule m, num_partitions=8
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p = f32[4] parameter(0)
  x = f32[4] all-reduce(p), channel_id=1, replica_groups=mesh['x'=2,'y'=4] {'x'}, use_global_device_ids=true, to_apply=add
  ROOT y = f32[4] all-reduce(x), channel_id=2, replica_groups=mesh['x'=2,'y'=4] {'y'}, use_global_device_ids=true, to_apply=add
}
)");
  ASSERT_TRUE(module) << errors_;
  std::string text = print(*module);
  EXPECT_NE(text.find("dense<[[0, 4], [1, 5], [2, 6], [3, 7]]>"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("dense<[[0, 1, 2, 3], [4, 5, 6, 7]]>"),
            std::string::npos)
      << text;
}

TEST_F(HloTest, ReadsXlaOptimizedForms) {
  // The tuple all-to-all: operand j to member j, stacked into the array
  // all-to-all along a new leading dimension; rhs_reversal: the kernel
  // reversed along the named spatial dimension.
  auto module = import(R"(HloModule m, num_partitions=2
ENTRY e {
  a = f32[1,2] parameter(0)
  b = f32[1,2] parameter(1)
  k = f32[3,1,1] parameter(2)
  x = f32[1,8,1] parameter(3)
  t = (f32[1,2], f32[1,2]) all-to-all(a, b), channel_id=1, replica_groups={{0,1}}
  c = f32[1,6,1] convolution(x, k), window={size=3 rhs_reversal=1}, dim_labels=b0f_0io->b0f
  t0 = f32[1,2] get-tuple-element(t), index=0
  ROOT r = (f32[1,2], f32[1,6,1]) tuple(t0, c)
}
)");
  ASSERT_TRUE(module) << errors_;
  std::string text = print(*module);
  EXPECT_NE(text.find("torus.concatenate"), std::string::npos) << text;
  EXPECT_NE(text.find("split_dimension = 0, concat_dimension = 0, "
                      "split_count = 2"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("torus.reverse %arg2, dims = [0]"),
            std::string::npos)
      << text;
}

TEST_F(HloTest, GatherBatchingDimensionsBecomeIndexDimensions) {
  // take_along_axis: row i takes x[i, idx[i, j]].
  auto module = import(R"(HloModule m
ENTRY e {
  x = f32[3,5] parameter(0)
  i = s32[3,2,1] parameter(1)
  ROOT g = f32[3,2] gather(x, i), offset_dims={}, collapsed_slice_dims={1}, start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, index_vector_dim=2, slice_sizes={1,1}
}
)");
  ASSERT_TRUE(module) << errors_;
  std::string text = print(*module);
  EXPECT_NE(text.find("torus.iota dim = 0 : tensor<3x2x1xi32>"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("collapsed_slice_dims = [0, 1], start_index_map = [1, "
                      "0], index_vector_dim = 2"),
            std::string::npos)
      << text;
}

TEST_F(HloTest, ExpandsIotaReplicaGroups) {
  auto module = import(R"(HloModule m, replica_count=4
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p = f32[4] parameter(0)
  ROOT r = f32[4] all-reduce(p), replica_groups=[2,2]<=[2,2]T(1,0), to_apply=add
}
)");
  ASSERT_TRUE(module) << errors_;
  std::string text = print(*module);
  EXPECT_NE(text.find("dense<[[0, 2], [1, 3]]>"), std::string::npos) << text;
}

TEST_F(HloTest, ImportsLessCommonForms) {
  const char *text = R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
pair {
  a0 = f32[] parameter(0)
  a1 = s32[] parameter(1)
  b0 = f32[] parameter(2)
  b1 = s32[] parameter(3)
  m = f32[] maximum(b0, a0)
  n = s32[] add(a1, b1)
  ROOT t = (f32[], s32[]) tuple(m, n)
}
ENTRY e {
  x = f32[4,6] parameter(0)
  i = s32[4,6] parameter(1)
  h = bf16[6,2] parameter(2)
  idx = s32[2] parameter(3)
  c = (f32[2], s32[]) constant(({1.5, -2}, 7))
  ninf = f32[] constant(-inf)
  zero = s32[] constant(0)
  r = (f32[4], s32[4]) reduce(x, i, ninf, zero), dimensions={1}, to_apply=pair
  ds = f32[2,3] dynamic-slice(x, idx), dynamic_slice_sizes={2,3}
  xb = bf16[4,6] convert(x)
  d = f32[4,2] dot(xb, h), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  sc = f32[4,6] custom-call(x), custom_call_target="Sharding", sharding={devices=[2,1]0,1}
  ROOT t = ((f32[2], s32[]), (f32[4], s32[4]), f32[2,3], f32[4,2], f32[4,6]) tuple(c, r, ds, d, sc)
}
)";
  auto module = import(text);
  ASSERT_TRUE(module) << errors_;
  std::string printed = print(*module);
  // A tuple constant: one constant per array.
  EXPECT_NE(
      printed.find("dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf32>"),
      std::string::npos)
      << printed;
  EXPECT_NE(printed.find("dense<7> : tensor<i32>"), std::string::npos)
      << printed;
  // A componentwise variadic reduce: one reduce per input.
  EXPECT_NE(printed.find("torus.reduce max"), std::string::npos) << printed;
  EXPECT_NE(printed.find("torus.reduce sum"), std::string::npos) << printed;
  // The old dynamic-slice form: the index vector is split into scalars.
  EXPECT_NE(printed.find("torus.dynamic_slice %arg0[%"), std::string::npos)
      << printed;
  // f32 dot(bf16, bf16): operands converted to f32.
  EXPECT_NE(printed.find("(tensor<6x2xbf16>) -> tensor<6x2xf32>"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("torus.sharding_constraint %arg0, sharding = "
                         "{devices=[2,1]<=[2]}"),
            std::string::npos)
      << printed;
  // The function has one result per array of the nested tuple.
  auto fn = module->lookupSymbol<func::FuncOp>("e");
  EXPECT_EQ(fn.getNumResults(), 7u);
  expectStable(text);
}

TEST_F(HloTest, StackFramesBecomeCallSiteLocations) {
  // As XLA's dumps write them: tables after the header; parent_frame_id is
  // printed one more than the parent's id. A computation may still be
  // named like a table.
  auto m = import(R"(HloModule dump
FileNames
1 "a.py"
2 "b.py"
FunctionNames
1 "main"
2 "f"
FileLocations
1 {file_name_id=1 function_name_id=1 line=40 end_line=40 column=2 end_column=9}
2 {file_name_id=2 function_name_id=2 line=7 end_line=7 column=5 end_column=9}
StackFrames
1 {file_location_id=1 parent_frame_id=1}
2 {file_location_id=2 parent_frame_id=2}

FileNames (x: f32[2]) -> f32[2] {
  x = f32[2] parameter(0)
  ROOT n = f32[2] negate(x), metadata={op_name="jit(f)/neg" stack_frame_id=2}
}
ENTRY e {
  p = f32[2] parameter(0)
  ROOT c = f32[2] call(p), to_apply=FileNames
}
)");
  ASSERT_TRUE(m) << errors_;
  NegateOp neg;
  m->walk([&](NegateOp op) { neg = op; });
  ASSERT_TRUE(neg);
  auto fused = dyn_cast<FusedLoc>(neg.getLoc());
  ASSERT_TRUE(fused);
  ASSERT_EQ(fused.getLocations().size(), 2u);
  auto name = dyn_cast<NameLoc>(fused.getLocations()[1]);
  ASSERT_TRUE(name);
  EXPECT_EQ(name.getName().getValue(), "jit(f)/neg");
  auto call = dyn_cast<CallSiteLoc>(name.getChildLoc());
  ASSERT_TRUE(call);
  auto callee = dyn_cast<FileLineColLoc>(call.getCallee());
  auto caller = dyn_cast<FileLineColLoc>(call.getCaller());
  ASSERT_TRUE(callee && caller);
  EXPECT_EQ(callee.getFilename().getValue(), "b.py");
  EXPECT_EQ(callee.getLine(), 7u);
  EXPECT_EQ(callee.getColumn(), 5u);
  EXPECT_EQ(caller.getFilename().getValue(), "a.py");
  EXPECT_EQ(caller.getLine(), 40u);
  // The export writes the innermost frame as the source.
  std::string text = exportText(*m);
  EXPECT_NE(text.find("op_name=\"jit(f)/neg\" source_file=\"b.py\" "
                      "source_line=7"),
            std::string::npos)
      << text;
}

TEST_F(HloTest, BitcastReadsLayouts) {
  // f32[2,3] row-major read as f32[3,2] column-major is the transpose; a
  // bitcast between row-major shapes is a reshape.
  auto m = import(R"(HloModule m
ENTRY e {
  p = f32[2,3]{1,0} parameter(0)
  t = f32[3,2]{0,1} bitcast(p)
  r = f32[6]{0} bitcast(p)
  ROOT out = (f32[3,2]{0,1}, f32[6]{0}) tuple(t, r)
}
)");
  ASSERT_TRUE(m) << errors_;
  std::string ir = print(*m);
  EXPECT_NE(ir.find("torus.transpose %arg0, permutation = [1, 0]"),
            std::string::npos)
      << ir;
  EXPECT_NE(ir.find("torus.reshape %arg0"), std::string::npos) << ir;
}

TEST_F(HloTest, DeviceCountsComeFromTheFirstSourceThatStatesThem) {
  auto counts = [&](llvm::StringRef header, llvm::StringRef body,
                    HloImportOptions options = {}) {
    std::string text = (header + "\nENTRY e {\n" + body +
                        "\n  ROOT n = f32[4] negate(p)\n}\n")
                           .str();
    DiagnosticCollector diags(&context_);
    auto m = importHloText(text, "test.hlo", &context_, options);
    if (!m)
      return "error: " + diags.take();
    auto get = [&](llvm::StringRef name) {
      auto a = (*m)->getAttrOfType<IntegerAttr>(name);
      return a ? std::to_string(a.getInt()) : std::string("-");
    };
    return get(kNumReplicasAttrName) + "x" + get(kNumPartitionsAttrName);
  };
  const char *param = "  p = f32[4] parameter(0)";
  const char *sharded = "  p = f32[4] parameter(0), sharding={devices=[4]<=[4]}";
  const char *mesh = "HloModule m, frontend_attributes={xla.sdy.meshes="
                     "{mesh = #sdy.mesh<[\"x\"=4, \"y\"=2]>}}";
  // The header wins, and a header that states one count means 1 for the
  // other (XLA writes the counts that are not 1).
  EXPECT_EQ(counts("HloModule m, num_partitions=2", sharded, {3, 16}), "-x2");
  EXPECT_EQ(counts("HloModule m, replica_count=2", sharded), "2x-");
  // Then mhlo.num_* frontend attributes, then a Shardy mesh, then the
  // devices shardings name, then the options, then 1.
  EXPECT_EQ(counts("HloModule m, frontend_attributes={mhlo.num_partitions="
                   "\"6\", mhlo.num_replicas=\"2\"}",
                   param),
            "2x6");
  EXPECT_EQ(counts(mesh, sharded, {0, 16}), "-x8");
  EXPECT_EQ(counts("HloModule m", sharded, {0, 16}), "-x4");
  EXPECT_EQ(counts("HloModule m", param, {3, 16}), "3x16");
  EXPECT_EQ(counts("HloModule m", param), "-x-");
}

TEST_F(HloTest, ProgramsAlreadyPerDeviceRunAsOneReplicaPerDevice) {
  // XLA's partitioned entry (`_spmd`): its sharding is what XLA split by.
  auto m = import(R"(HloModule m, num_partitions=4
ENTRY main_spmd {
  p = f32[2] parameter(0), sharding={devices=[4]<=[4]}
  ROOT r = u32[] partition-id()
}
)");
  ASSERT_TRUE(m) << errors_;
  EXPECT_EQ((*m)->getAttrOfType<IntegerAttr>(kNumReplicasAttrName).getInt(), 4);
  std::string ir = print(*m);
  EXPECT_EQ(ir.find("torus.sharding"), std::string::npos) << ir;
  EXPECT_NE(ir.find("torus.remainder"), std::string::npos) << ir;
  // The same program not yet partitioned keeps its partitions.
  auto global = import(R"(HloModule m, num_partitions=4
ENTRY main {
  p = f32[8] parameter(0), sharding={devices=[4]<=[4]}
  ROOT r = u32[] partition-id()
}
)");
  ASSERT_TRUE(global) << errors_;
  EXPECT_EQ(
      (*global)->getAttrOfType<IntegerAttr>(kNumPartitionsAttrName).getInt(),
      4);
  EXPECT_NE(print(*global).find("torus.sharding"), std::string::npos);
}

TEST_F(HloTest, RejectsSizesThatWouldOverflow) {
  EXPECT_FALSE(import(R"(HloModule m
ENTRY e {
  ROOT p = f32[1099511627776,1099511627776,0] parameter(0)
}
)"));
  EXPECT_NE(errors_.find("shape has too many elements"), std::string::npos)
      << errors_;
  EXPECT_FALSE(import(R"(HloModule m
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p = f32[4] parameter(0)
  ROOT r = f32[4] all-reduce(p), replica_groups=[4611686018427387904,4]<=[4], to_apply=add
}
)"));
  EXPECT_NE(errors_.find("iota replica groups need a [groups,size] shape"),
            std::string::npos)
      << errors_;
}

TEST_F(HloTest, ExportIsStable) { expectStable(kAxpy); }

/// A function `main` of one op `name` on `operandTypes`, returning its one
/// result of `resultType`; null if the op rejects these types.
OwningOpRef<ModuleOp> singleOpModule(MLIRContext *ctx, OperationName name,
                                     TypeRange operandTypes, Type resultType) {
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  OpBuilder b(ctx);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto fn = b.create<func::FuncOp>(
      loc, "main", b.getFunctionType(operandTypes, {resultType}));
  Block *body = fn.addEntryBlock();
  b.setInsertionPointToEnd(body);
  OperationState state(loc, name);
  state.addOperands(body->getArguments());
  state.addTypes(resultType);
  Operation *op = b.create(state);
  b.create<func::ReturnOp>(loc, op->getResult(0));
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

/// The ops of `main`'s body but its return.
llvm::SmallVector<Operation *> mainOps(ModuleOp module) {
  llvm::SmallVector<Operation *> ops;
  if (auto fn = module.lookupSymbol<func::FuncOp>("main"))
    for (Operation &op : fn.getBody().front().without_terminator())
      ops.push_back(&op);
  return ops;
}

// Every op that HloOpInterface alone maps (an opcode, no attributes, one
// result) goes out as its opcode and comes back as itself, with no table
// naming it: the registered ops are iterated, so a new such op is covered
// here as soon as it is declared. The verifier picks operand and result
// types for each op among a few candidates.
TEST_F(HloTest, AttributeFreeOpsRoundTripThroughTheirOpcode) {
  Builder b(&context_);
  const Type candidates[] = {RankedTensorType::get({4}, b.getF32Type()),
                             RankedTensorType::get({4}, b.getI1Type()),
                             RankedTensorType::get({4}, b.getI32Type()),
                             RankedTensorType::get({}, b.getI32Type()),
                             RankedTensorType::get({}, b.getIntegerType(
                                                           32, false)),
                             RankedTensorType::get(
                                 {4}, ComplexType::get(b.getF32Type()))};
  const size_t k = std::size(candidates);
  int covered = 0;
  for (RegisteredOperationName name : context_.getRegisteredOperations()) {
    if (!isGenericHloOp(name))
      continue;
    ++covered;
    std::optional<unsigned> fixed = fixedOperandCount(name);
    llvm::SmallVector<unsigned> counts;
    if (fixed)
      counts.push_back(*fixed);
    else
      counts.append({1, 2, 3});
    bool roundTrips = false, anyValid = false;
    std::string last;
    for (unsigned n : counts) {
      // Each assignment of candidates to the n operands and the result.
      size_t combinations = 1;
      for (unsigned i = 0; i <= n; ++i)
        combinations *= k;
      for (size_t c = 0; c < combinations && !roundTrips; ++c) {
        llvm::SmallVector<Type> types;
        for (size_t rest = c, i = 0; i <= n; ++i, rest /= k)
          types.push_back(candidates[rest % k]);
        Type resultType = types.pop_back_val();
        auto module = singleOpModule(&context_, name, types, resultType);
        if (!module)
          continue;
        anyValid = true;
        last = exportText(*module);
        auto back = import(last);
        if (!back) {
          last += errors_;
          continue;
        }
        llvm::SmallVector<Operation *> ops = mainOps(*back);
        roundTrips =
            last.find(" " + hloOpcode(name).str() + "(") != std::string::npos &&
            ops.size() == 1 && ops[0]->getName() == name &&
            ops[0]->getOperandTypes() == TypeRange(types) &&
            ops[0]->getResultTypes() == TypeRange(resultType);
        if (!roundTrips)
          last += print(*back);
      }
    }
    EXPECT_TRUE(anyValid) << name.getStringRef().str()
                          << ": no candidate types verify; add some";
    EXPECT_TRUE(roundTrips)
        << name.getStringRef().str() << " does not round-trip; last try:\n"
        << last;
  }
  // Unary and binary arithmetic, select, clamp, convert, reshape, ...
  EXPECT_GE(covered, 35);
}

// Every opcode an op declares with HloOpcode<...> is read: by a handler in
// the importer's opcode table, or generically. An op with attributes and no
// handler fails here, naming its opcode.
TEST_F(HloTest, EveryDeclaredOpcodeImports) {
  for (RegisteredOperationName name : context_.getRegisteredOperations()) {
    llvm::StringRef opcode = hloOpcode(name);
    if (opcode.empty())
      continue;
    std::string text = ("HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n"
                        "  ROOT r = f32[4] " +
                        opcode + "(p)\n}\n")
                           .str();
    (void)import(text);
    EXPECT_EQ(errors_.find("unsupported HLO opcode"), std::string::npos)
        << name.getStringRef().str() << ": " << errors_;
  }
}

/// Every opcode of XLA's HloOpcode list (xla/hlo/ir/hlo_opcode.h).
constexpr const char *kXlaOpcodes[] = {
    "abs", "add", "add-dependency", "after-all", "all-gather",
    "all-gather-done", "all-gather-start", "all-reduce", "all-reduce-done",
    "all-reduce-start", "all-to-all", "and", "async-done", "async-start",
    "async-update", "atan2", "batch-norm-grad", "batch-norm-inference",
    "batch-norm-training", "bitcast", "bitcast-convert", "broadcast", "call",
    "cbrt", "ceil", "cholesky", "clamp", "collective-broadcast",
    "collective-permute", "collective-permute-done",
    "collective-permute-start", "compare", "complex", "concatenate",
    "conditional", "constant", "convert", "convolution", "copy", "copy-done",
    "copy-start", "cosine", "count-leading-zeros", "custom-call", "divide",
    "domain", "dot", "dynamic-reshape", "dynamic-slice",
    "dynamic-update-slice", "erf", "exponential", "exponential-minus-one",
    "fft", "floor", "fusion", "gather", "get-dimension-size",
    "get-tuple-element", "imag", "infeed", "iota", "is-finite", "log",
    "log-plus-one", "logistic", "map", "maximum", "minimum", "multiply",
    "negate", "not", "opt-barrier", "or", "outfeed", "pad", "parameter",
    "partition-id", "popcnt", "power", "ragged-all-to-all", "ragged-dot",
    "real", "recv", "recv-done", "reduce", "reduce-precision",
    "reduce-scatter", "reduce-window", "remainder", "replica-id", "reshape",
    "reverse", "rng", "rng-bit-generator", "rng-get-and-update-state",
    "round-nearest-afz", "round-nearest-even", "rsqrt", "scatter", "select",
    "select-and-scatter", "send", "send-done", "set-dimension-size",
    "shift-left", "shift-right-arithmetic", "shift-right-logical", "sign",
    "sine", "slice", "sort", "sqrt", "stochastic-convert", "subtract", "tan",
    "tanh", "topk", "transpose", "triangular-solve", "tuple", "while", "xor"};

/// The opcodes docs/hlo.md lists as left out: rows of its table "Opcodes
/// Torus does not read" that start with "| `opcode`".
std::set<std::string> documentedLeftOut() {
  std::ifstream doc(TORUS_HLO_DOC);
  EXPECT_TRUE(doc.good()) << "cannot read " << TORUS_HLO_DOC;
  std::set<std::string> out;
  bool inTable = false;
  for (std::string line; std::getline(doc, line);) {
    if (line.starts_with("## "))
      inTable = line.find("Opcodes Torus does not read") != std::string::npos;
    if (inTable && line.starts_with("| `")) {
      for (size_t at = 2; at < line.size() && line[at] == '`';) {
        size_t end = line.find('`', at + 1);
        out.insert(line.substr(at + 1, end - at - 1));
        at = line.find_first_not_of(" ", end + 1);
      }
    }
  }
  return out;
}

TEST_F(HloTest, EveryXlaOpcodeImportsOrIsDocumented) {
  std::set<std::string> leftOut = documentedLeftOut();
  for (const char *opcode : kXlaOpcodes) {
    SCOPED_TRACE(opcode);
    std::string text = std::string("HloModule m\nENTRY e {\n"
                                    "  p = f32[4] parameter(0)\n"
                                    "  ROOT r = f32[4] ") +
                       opcode + "(p)\n}\n";
    (void)import(text);
    bool unsupported = errors_.find("unsupported HLO opcode") !=
                       std::string::npos;
    if (unsupported)
      EXPECT_TRUE(leftOut.count(opcode))
          << "'" << opcode << "' neither imports nor is listed with its "
          << "reason in docs/hlo.md, \"Opcodes Torus does not read\"";
    else
      EXPECT_FALSE(leftOut.count(opcode))
          << "'" << opcode << "' imports: remove it from docs/hlo.md's "
          << "\"Opcodes Torus does not read\"";
  }
}

TEST_F(HloTest, NoInputCrashesTheReader) {
  // Mutations of a valid module: every one must end in a module or an
  // error, never a crash (the fuzz target explores further).
  std::string base = R"(HloModule m, replica_count=2
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}
ENTRY e {
  p = f32[2,4]{1,0} parameter(0)
  c = f32[2,4] constant({ {1, 2, 3, 4}, {5, 6, 7, 8} })
  m = f32[2,4] multiply(p, c), sharding={devices=[2,1]0,1}
  r = f32[2] reduce(m, z), dimensions={1}, to_apply=add
  z = f32[] constant(0)
  ROOT ar = f32[2] all-reduce(r), replica_groups={{0,1}}, to_apply=add
}
)";
  std::mt19937 rng(7);
  const char alphabet[] = "{}[](),=%_x:<>T0123456789 \n-./*fsupred";
  ScopedDiagnosticHandler quiet(&context_,
                                [](Diagnostic &) { return success(); });
  for (int i = 0; i < 2000; ++i) {
    std::string text = base;
    int edits = 1 + rng() % 4;
    for (int k = 0; k < edits; ++k) {
      size_t at = rng() % text.size();
      switch (rng() % 3) {
      case 0:
        text.erase(at, 1 + rng() % 6);
        break;
      case 1:
        text.insert(at, 1, alphabet[rng() % (sizeof(alphabet) - 1)]);
        break;
      default:
        text[at] = alphabet[rng() % (sizeof(alphabet) - 1)];
        break;
      }
    }
    auto module = importHloText(text, "fuzz.hlo", &context_);
    if (module && succeeded(verify(*module))) {
      std::string out;
      llvm::raw_string_ostream os(out);
      (void)exportHloText(*module, os);
    }
  }
}

} // namespace
} // namespace mlir::torus::hlo
