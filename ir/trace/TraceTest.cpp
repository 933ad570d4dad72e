//===- TraceTest.cpp - Tests of the tracer --------------------------------===//

#include "torus/Trace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace torus;
using ::testing::HasSubstr;

namespace {

TensorSpec f32(Shape shape) { return {DType::F32, std::move(shape)}; }

TEST(TraceTest, RecordsOpsWithBroadcasting) {
  auto fn = trace("affine", {f32({4, 3}), f32({3})},
                  [](const std::vector<Tensor> &in) {
                    return std::vector<Tensor>{relu(in[0] + in[1]) * 2.0};
                  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  EXPECT_EQ(fn->outputs(), std::vector<TensorSpec>{f32({4, 3})});
  std::string ir = fn->toString();
  EXPECT_THAT(ir, HasSubstr("torus.broadcast_in_dim %arg1, dims = [1] : "
                            "(tensor<3xf32>) -> tensor<4x3xf32>"));
  EXPECT_THAT(ir, HasSubstr("torus.add"));
  EXPECT_THAT(ir, HasSubstr("torus.maximum"));
  EXPECT_THAT(ir, HasSubstr("torus.multiply"));
}

// toString() prints where every op was traced (file:line of the C++ that
// traced it) and the arguments' names, and parseModule() reads both back.
TEST(TraceTest, PrintedModuleKeepsSourceLocationsAndArgumentNames) {
  int opLine = 0;
  const int traceLine = __LINE__ + 1;
  auto fn = trace("step", {f32({4}), f32({4})}, [&](Tensor x, Tensor w) {
    opLine = __LINE__ + 1;
    return exp(x) * w;
  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  EXPECT_EQ(fn->argumentNames(), (std::vector<std::string>{"arg0", "arg1"}));
  ASSERT_TRUE(fn->setArgumentNames({"x", "weights"}).ok());
  EXPECT_EQ(fn->argumentNames(),
            (std::vector<std::string>{"x", "weights"}));

  std::string ir = fn->toString();
  // Both ops (exp, multiply) on the lambda's line, the function where
  // trace() was called, each argument named there.
  std::string file = __FILE__;
  std::string at = [&](int line) {
    return "\"" + file + "\":" + std::to_string(line) + ":";
  }(opLine);
  EXPECT_THAT(ir, HasSubstr("torus.exp %arg0 : tensor<4xf32> loc(" + at));
  EXPECT_THAT(ir, HasSubstr("torus.multiply %0, %arg1 : tensor<4xf32> loc(" + at));
  std::string callSite = "\"" + file + "\":" + std::to_string(traceLine) + ":";
  EXPECT_THAT(ir, HasSubstr("loc(\"x\"(" + callSite));
  EXPECT_THAT(ir, HasSubstr("loc(\"weights\"(" + callSite));

  auto back = parseModule(ir, "printed.mlir");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->argumentNames(),
            (std::vector<std::string>{"x", "weights"}));
  EXPECT_THAT(back->toString(), HasSubstr("loc(" + at));
}

// Names that HLO could not keep, too many or too few, and repeats are
// refused, and the names stay as they were.
TEST(TraceTest, SetArgumentNamesRefusesBadNames) {
  auto fn = trace("f", {f32({2}), f32({2})},
                  [](Tensor a, Tensor b) { return a + b; });
  ASSERT_TRUE(fn.ok()) << fn.status();
  auto message = [&](const std::vector<std::string> &names) {
    return std::string(fn->setArgumentNames(names).message());
  };
  EXPECT_EQ(message({"a"}),
            "setArgumentNames: @f takes 2 arguments but 1 names were given");
  EXPECT_EQ(message({"a", "2b"}),
            "setArgumentNames: name 1 '2b' is not [A-Za-z_][A-Za-z0-9_.-]*");
  EXPECT_EQ(message({"a b", "c"}),
            "setArgumentNames: name 0 'a b' is not [A-Za-z_][A-Za-z0-9_.-]*");
  EXPECT_EQ(message({"a", "a"}),
            "setArgumentNames: arguments 0 and 1 are both named 'a'");
  EXPECT_EQ(fn->argumentNames(), (std::vector<std::string>{"arg0", "arg1"}));
}

// A parsed module's arguments are named as written (`%x` -> x); `%0` is
// not a name.
TEST(TraceTest, ParsedArgumentsAreNamedAsWritten) {
  auto fn = parseModule(R"(
func.func @f(%x: tensor<2xf32>, %0: tensor<2xf32>, %w_1: tensor<2xf32>)
    -> tensor<2xf32> {
  %s = torus.add %x, %0 : tensor<2xf32>
  %t = torus.add %s, %w_1 : tensor<2xf32>
  return %t : tensor<2xf32>
}
)",
                        "named.mlir");
  ASSERT_TRUE(fn.ok()) << fn.status();
  EXPECT_EQ(fn->argumentNames(),
            (std::vector<std::string>{"x", "arg1", "w_1"}));
  EXPECT_THAT(fn->toString(), HasSubstr("loc(\"x\"(\"named.mlir\":2:14))"));
}

TEST(TraceTest, ShapeMismatchNamesOpShapesAndLine) {
  auto fn = trace("bad", {f32({4, 3}), f32({5})},
                  [](const std::vector<Tensor> &in) {
                    Tensor r = add(in[0], in[1]);
                    return std::vector<Tensor>{exp(r)}; // poisoned: no 2nd error
                  });
  ASSERT_FALSE(fn.ok());
  EXPECT_EQ(fn.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(fn.status().message()),
              HasSubstr("add: shapes f32[4,3] and f32[5] cannot be broadcast "
                        "together (at TraceTest.cpp:"));
}

TEST(TraceTest, MatmulContractingMismatch) {
  auto fn = trace("mm", {f32({4, 3}), f32({4, 2})},
                  [](const std::vector<Tensor> &in) {
                    return std::vector<Tensor>{matmul(in[0], in[1])};
                  });
  ASSERT_FALSE(fn.ok());
  EXPECT_THAT(std::string(fn.status().message()),
              HasSubstr("matmul: contracting dimensions differ: f32[4,3] has "
                        "3 columns but f32[4,2] has 4 rows"));
}

TEST(TraceTest, MatmulShapes) {
  auto fn = trace("mm", {f32({2, 4, 3}), f32({3, 5}), f32({3})},
                  [](const std::vector<Tensor> &in) {
                    return std::vector<Tensor>{matmul(in[0], in[1]),
                                               matmul(in[0], in[2]),
                                               matmul(in[2], in[1])};
                  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  EXPECT_EQ(fn->outputs()[0], f32({2, 4, 5}));
  EXPECT_EQ(fn->outputs()[1], f32({2, 4}));
  EXPECT_EQ(fn->outputs()[2], f32({5}));
}

TEST(TraceTest, ReductionsWithAxesAndKeepdims) {
  auto fn = trace("r", {f32({2, 3, 4})}, [](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{sum(in[0], {-1}), mean(in[0], {0, 2}, true),
                               max(in[0])};
  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  EXPECT_EQ(fn->outputs()[0], f32({2, 3}));
  EXPECT_EQ(fn->outputs()[1], f32({1, 3, 1}));
  EXPECT_EQ(fn->outputs()[2], f32({}));
}

TEST(TraceTest, BadAxisIsAnError) {
  auto fn = trace("r", {f32({2, 3})}, [](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{sum(in[0], {2})};
  });
  ASSERT_FALSE(fn.ok());
  EXPECT_THAT(std::string(fn.status().message()),
              HasSubstr("sum: axis 2 is out of range for f32[2,3]"));
}

TEST(TraceTest, MixedDTypesPromote) {
  auto fn = trace("m", {f32({2}), {DType::I32, {2}}},
                  [](const std::vector<Tensor> &in) {
                    return std::vector<Tensor>{in[0] * in[1]};
                  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  EXPECT_EQ(fn->outputs()[0], f32({2}));
  EXPECT_THAT(fn->toString(),
              HasSubstr("torus.convert %arg1 : (tensor<2xi32>) -> "
                        "tensor<2xf32>"));
}

TEST(TraceTest, ReplicaIdAndAllReduce) {
  auto fn = trace("ar", {f32({8})}, [](const std::vector<Tensor> &in) {
    Tensor id = astype(replicaId(), DType::F32);
    return std::vector<Tensor>{allReduce(in[0] * id, ReduceOp::Sum,
                                         {{0, 1}, {2, 3}})};
  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  EXPECT_THAT(fn->toString(), HasSubstr("torus.replica_id : tensor<i32>"));
  EXPECT_THAT(fn->toString(),
              HasSubstr("torus.all_reduce sum %3 {replica_groups = "
                        "dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}"));
}

TEST(TraceTest, OverlappingReplicaGroupsAreAnError) {
  auto fn = trace("ar", {f32({8})}, [](const std::vector<Tensor> &in) {
    return std::vector<Tensor>{allReduce(in[0], ReduceOp::Sum, {{0, 1}, {1, 2}})};
  });
  ASSERT_FALSE(fn.ok());
  EXPECT_THAT(std::string(fn.status().message()),
              HasSubstr("replica 1 appears in more than one place"));
}

TEST(TraceTest, ParseModuleReportsFileLineCol) {
  auto fn = parseModule("func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
                        "  %0 = torus.add %a, %b : tensor<4xf32>\n"
                        "  return %0 : tensor<4xf32>\n}\n",
                        "bad.mlir");
  ASSERT_FALSE(fn.ok());
  EXPECT_THAT(std::string(fn.status().message()),
              HasSubstr("bad.mlir:2:22: error: use of undeclared SSA value name"));
}

TEST(TraceTest, ParseModuleReadsSignature) {
  auto fn = parseModule(
      "func.func @f(%a: tensor<4x2xf32>) -> tensor<2xf32> {\n"
      "  %0 = torus.reduce sum %a, dims = [0] : (tensor<4x2xf32>) -> "
      "tensor<2xf32>\n"
      "  return %0 : tensor<2xf32>\n}\n",
      "ok.mlir");
  ASSERT_TRUE(fn.ok()) << fn.status();
  EXPECT_EQ(fn->name(), "f");
  EXPECT_EQ(fn->inputs(), std::vector<TensorSpec>{f32({4, 2})});
  EXPECT_EQ(fn->outputs(), std::vector<TensorSpec>{f32({2})});
}

} // namespace

//===----------------------------------------------------------------------===//
// The extended API
//===----------------------------------------------------------------------===//

namespace {

TensorSpec spec(DType d, Shape s) { return {d, std::move(s)}; }

/// Traces `fn` and returns its error message ("" when it traced).
template <typename Fn>
std::string traceError(const std::vector<TensorSpec> &inputs, Fn &&fn) {
  auto traced = trace("f", inputs, std::forward<Fn>(fn));
  return traced.ok() ? "" : std::string(traced.status().message());
}

/// Traces `fn` and returns the output specs (empty after an error, which
/// fails the test).
template <typename Fn>
std::vector<TensorSpec> outputsOf(const std::vector<TensorSpec> &inputs,
                                  Fn &&fn) {
  auto traced = trace("f", inputs, std::forward<Fn>(fn));
  EXPECT_TRUE(traced.ok()) << traced.status();
  return traced.ok() ? traced->outputs() : std::vector<TensorSpec>{};
}

} // namespace

TEST(TraceTest, PromotionLattice) {
  using D = DType;
  EXPECT_EQ(promoteTypes(D::I32, D::F16), D::F16);
  EXPECT_EQ(promoteTypes(D::BF16, D::F16), D::F32);
  EXPECT_EQ(promoteTypes(D::I1, D::I32), D::I32);
  EXPECT_EQ(promoteTypes(D::I32, D::I64), D::I64);
  EXPECT_EQ(promoteTypes(D::I64, D::F32), D::F32);
  EXPECT_EQ(promoteTypes(D::F32, D::F64), D::F64);
  EXPECT_EQ(promoteTypes(D::I1, D::BF16), D::BF16);
  EXPECT_EQ(promoteTypes(D::F16, D::F16), D::F16);
}

TEST(TraceTest, PromotionIsAJoin) {
  // Commutative and idempotent over every dtype; associative over the
  // floats (the 8-bit ones included), so the order float operands are
  // combined in never matters. (Not over all integers: i64 v u64 is JAX's
  // weak float, which materializes as f32, so (f16 v i64) v u64 = f16 but
  // f16 v (i64 v u64) = f32, as in JAX.)
  for (DType a : kAllDTypes) {
    EXPECT_EQ(promoteTypes(a, a), a) << dtypeName(a);
    for (DType b : kAllDTypes) {
      EXPECT_EQ(promoteTypes(a, b), promoteTypes(b, a))
          << dtypeName(a) << " " << dtypeName(b);
      if (!isFloat(a) || !isFloat(b))
        continue;
      for (DType c : kAllDTypes)
        if (isFloat(c) || isComplex(c))
          EXPECT_EQ(promoteTypes(promoteTypes(a, b), c),
                    promoteTypes(a, promoteTypes(b, c)))
              << dtypeName(a) << " " << dtypeName(b) << " " << dtypeName(c);
    }
  }
}

TEST(TraceTest, WeakScalarsTakeTheTensorsDType) {
  auto out = outputsOf(
      {spec(DType::F16, {2}), spec(DType::I32, {2}), spec(DType::I1, {2})},
      [](Tensor h, Tensor i, Tensor b) {
        return std::make_tuple(h * 2, i * 2, i * 2.5, b + 1, 3.0 - h,
                               where(b, i, 0.5), maximum(i, 1));
      });
  ASSERT_EQ(out.size(), 7u);
  EXPECT_EQ(out[0].dtype, DType::F16);
  EXPECT_EQ(out[1].dtype, DType::I32);
  EXPECT_EQ(out[2].dtype, DType::F32);
  EXPECT_EQ(out[3].dtype, DType::I32);
  EXPECT_EQ(out[4].dtype, DType::F16);
  EXPECT_EQ(out[5].dtype, DType::F32);
  EXPECT_EQ(out[6].dtype, DType::I32);
}

TEST(TraceTest, OperatorErrorsNameTheirLine) {
  std::string error = traceError({f32({4, 3}), f32({5})},
                                 [](Tensor a, Tensor b) {
                                   return a - b; // this line
                                 });
  EXPECT_THAT(error, HasSubstr("subtract: shapes f32[4,3] and f32[5] cannot "
                               "be broadcast together (at TraceTest.cpp:"));
  EXPECT_THAT(error, HasSubstr(std::to_string(__LINE__ - 4) + ")"));
}

TEST(TraceTest, FloatFunctionsPromoteIntegers) {
  auto out = outputsOf({spec(DType::I32, {3})}, [](Tensor i) {
    return std::make_tuple(exp(i), sqrt(i), abs(i), mean(i), sum(i > 0));
  });
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].dtype, DType::F32);
  EXPECT_EQ(out[1].dtype, DType::F32);
  EXPECT_EQ(out[2].dtype, DType::I32);
  EXPECT_EQ(out[3], f32({}));
  EXPECT_EQ(out[4], spec(DType::I32, {}));
}

TEST(TraceTest, BitwiseOnFloatsIsAnError) {
  EXPECT_THAT(traceError({f32({2}), f32({2})},
                         [](Tensor a, Tensor b) { return a & b; }),
              HasSubstr("bitwise_and: needs integer or i1 operands, got "
                        "f32[2], f32[2]"));
}

struct StepOut {
  Tensor loss;
  std::vector<Tensor> grads;
  std::tuple<Tensor, Tensor> pair;
  TORUS_TENSOR_FIELDS(loss, grads, pair)
};

TEST(TraceTest, StructuredOutputsFlattenDepthFirst) {
  auto out = outputsOf({f32({2, 3}), f32({3})}, [](Tensor x, Tensor w) {
    StepOut o;
    o.loss = sum(x);
    o.grads = {x * 2.0, w};
    o.pair = {max(x, {0}), astype(w, DType::F64)};
    return o;
  });
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0], f32({}));
  EXPECT_EQ(out[1], f32({2, 3}));
  EXPECT_EQ(out[2], f32({3}));
  EXPECT_EQ(out[3], f32({3}));
  EXPECT_EQ(out[4], spec(DType::F64, {3}));
}

TEST(TraceTest, ArityMustMatchTheSpecs) {
  auto traced = trace("f", {f32({2})}, [](Tensor a, Tensor b) { return a + b; });
  ASSERT_FALSE(traced.ok());
  EXPECT_THAT(std::string(traced.status().message()),
              HasSubstr("the function takes 2 tensors but 1 input specs"));
}

TEST(TraceTest, NumpyIndexing) {
  auto out = outputsOf({f32({4, 5, 6})}, [](Tensor x) {
    return std::make_tuple(
        x[1], x[{Slice(1, 3), 0}], x[{ellipsis, Slice(std::nullopt, std::nullopt, -2)}],
        x[{newAxis, Slice(), -1}], x[Slice(-2, std::nullopt)],
        x[{Slice(3, 0, -1), Slice(0, 100)}]);
  });
  ASSERT_EQ(out.size(), 6u);
  EXPECT_EQ(out[0], f32({5, 6}));
  EXPECT_EQ(out[1], f32({2, 6}));
  EXPECT_EQ(out[2], f32({4, 5, 3}));
  EXPECT_EQ(out[3], f32({1, 4, 6}));
  EXPECT_EQ(out[4], f32({2, 5, 6}));
  EXPECT_EQ(out[5], f32({3, 5, 6}));
}

TEST(TraceTest, IndexOutOfBoundsIsAnError) {
  EXPECT_THAT(traceError({f32({4, 5})}, [](Tensor x) { return x[{0, 5}]; }),
              HasSubstr("index: index 5 is out of bounds for axis 1 of "
                        "f32[4,5]"));
  EXPECT_THAT(traceError({f32({4})}, [](Tensor x) { return x[{0, 1}]; }),
              HasSubstr("too many indices (2) for f32[4]"));
}

TEST(TraceTest, ShapeFunctions) {
  auto out = outputsOf({f32({2, 3}), spec(DType::I32, {2, 3})},
                       [](Tensor a, Tensor b) {
                         return std::make_tuple(
                             concatenate({a, b}, 1), stack({a, a}, 1),
                             pad(a, {{1, 0}, {-1, 2}}), reverse(a, {0}),
                             expandDims(a, -1), squeeze(expandDims(a, 0)),
                             dynamicSlice(a, {1, b[{0, 0}]}, {1, 2}),
                             slice(a, {0, 0}, {2, 3}, {2, 2}));
                       });
  ASSERT_EQ(out.size(), 8u);
  EXPECT_EQ(out[0], f32({2, 6}));
  EXPECT_EQ(out[1], f32({2, 2, 3}));
  EXPECT_EQ(out[2], f32({3, 4}));
  EXPECT_EQ(out[3], f32({2, 3}));
  EXPECT_EQ(out[4], f32({2, 3, 1}));
  EXPECT_EQ(out[5], f32({2, 3}));
  EXPECT_EQ(out[6], f32({1, 2}));
  EXPECT_EQ(out[7], f32({1, 2}));
}

TEST(TraceTest, ConcatenateMismatchNamesShapes) {
  EXPECT_THAT(traceError({f32({2, 3}), f32({2, 4})},
                         [](Tensor a, Tensor b) {
                           return concatenate({a, b}, 0);
                         }),
              HasSubstr("concatenate: dimension 1: input 1 [2,4] differs from "
                        "input 0 [2,3] (f32[2,3], f32[2,4])"));
}

TEST(TraceTest, ReductionsAndSoftmax) {
  auto out = outputsOf({f32({2, 3, 4})}, [](Tensor x) {
    return std::make_tuple(prod(x, {1}), any(x, {0, 2}, true), all(x),
                           argmax(x, 1), argmin(x, -1, true),
                           softmax(x, 1), logSoftmax(x), logsumexp(x, {2}),
                           logsumexp(x, {0}, true));
  });
  ASSERT_EQ(out.size(), 9u);
  EXPECT_EQ(out[0], f32({2, 4}));
  EXPECT_EQ(out[1], spec(DType::I1, {1, 3, 1}));
  EXPECT_EQ(out[2], spec(DType::I1, {}));
  EXPECT_EQ(out[3], spec(DType::I32, {2, 4}));
  EXPECT_EQ(out[4], spec(DType::I32, {2, 3, 1}));
  EXPECT_EQ(out[5], f32({2, 3, 4}));
  EXPECT_EQ(out[6], f32({2, 3, 4}));
  EXPECT_EQ(out[7], f32({2, 3}));
  EXPECT_EQ(out[8], f32({1, 3, 4}));
}

TEST(TraceTest, ConvolutionAndPooling) {
  auto out = outputsOf({f32({2, 9, 9, 4}), f32({3, 3, 2, 6})},
                       [](Tensor x, Tensor w) {
                         return std::make_tuple(
                             conv2d(x, w, {2, 2}, Padding::same(), {1, 1}, 2),
                             conv2d(x, w, {1, 1}, Padding::valid(), {2, 2}, 2),
                             maxPool2d(x, {2, 2}),
                             avgPool2d(x, {3, 3}, {2, 2}, Padding::same()));
                       });
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0], f32({2, 5, 5, 6}));
  EXPECT_EQ(out[1], f32({2, 5, 5, 6}));
  EXPECT_EQ(out[2], f32({2, 4, 4, 4}));
  EXPECT_EQ(out[3], f32({2, 5, 5, 4}));
}

TEST(TraceTest, ConvolutionFeatureMismatchNamesShapes) {
  EXPECT_THAT(
      traceError({f32({1, 8, 8, 3}), f32({3, 3, 4, 8})},
                 [](Tensor x, Tensor w) { return conv2d(x, w); }),
      HasSubstr("convolution: input feature dimension 3 has size 3, which is "
                "not the kernel's input feature size 4 times "
                "feature_group_count 1 (input [1,8,8,3], kernel [3,3,4,8])"));
}

TEST(TraceTest, Indexing) {
  auto out = outputsOf(
      {f32({10, 4}), spec(DType::I32, {2, 3}), spec(DType::I64, {10, 2})},
      [](Tensor table, Tensor ids, Tensor cols) {
        return std::make_tuple(embeddingLookup(table, ids), take(table, ids, 1),
                               takeAlongAxis(table, cols, 1),
                               oneHot(ids, 5), oneHot(ids, 5, DType::I32, 0),
                               indexAdd(table, ids, zeros({2, 3, 4})));
      });
  ASSERT_EQ(out.size(), 6u);
  EXPECT_EQ(out[0], f32({2, 3, 4}));
  EXPECT_EQ(out[1], f32({10, 2, 3}));
  EXPECT_EQ(out[2], f32({10, 2}));
  EXPECT_EQ(out[3], f32({2, 3, 5}));
  EXPECT_EQ(out[4], spec(DType::I32, {5, 2, 3}));
  EXPECT_EQ(out[5], f32({10, 4}));
}

TEST(TraceTest, IndexAddChecksTheUpdatesShape) {
  EXPECT_THAT(traceError({f32({10, 4}), spec(DType::I32, {3})},
                         [](Tensor t, Tensor ids) {
                           return indexAdd(t, ids, zeros({3, 5}));
                         }),
              HasSubstr("index_add: updates f32[3,5] should have shape [3,4]"));
  EXPECT_THAT(traceError({f32({10, 4}), f32({3})},
                         [](Tensor t, Tensor ids) { return take(t, ids); }),
              HasSubstr("take: indices must be i32 or i64, got f32[3]"));
}

TEST(TraceTest, WhileLoopAndCond) {
  auto fn = trace("f", {f32({4}), spec(DType::I32, {})},
                  [](Tensor x, Tensor n) {
                    TensorList r = whileLoop(
                        [&](const TensorList &s) { return s[0] < n; },
                        [&](const TensorList &s) {
                          return TensorList{s[0] + 1, s[1] * x};
                        },
                        {scalar(0, DType::I32), onesLike(x)});
                    Tensor c = cond(
                        n > 2, [&] { return r[1]; }, [&] { return -r[1]; });
                    TensorList s = switchCase(
                        n, {[&] { return TensorList{x}; },
                            [&] { return TensorList{x + 1}; }});
                    return std::make_tuple(r[1], c, s[0]);
                  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  std::string ir = fn->toString();
  EXPECT_THAT(ir, HasSubstr("torus.while("));
  EXPECT_THAT(ir, HasSubstr("torus.if %"));
  EXPECT_THAT(ir, HasSubstr("torus.case %"));
  EXPECT_EQ(fn->outputs(), (std::vector<TensorSpec>{f32({4}), f32({4}),
                                                    f32({4})}));
}

TEST(TraceTest, LoopBodyMustKeepTheStateTypes) {
  EXPECT_THAT(
      traceError({f32({4})},
                 [](Tensor x) {
                   return whileLoop([](const Tensor &s) { return sum(s) < 10; },
                                    [](const Tensor &s) { return sum(s); }, x);
                 }),
      HasSubstr("while_loop: the body's results and the loop state must "
                "match: got (f32[]) but expected (f32[4])"));
  EXPECT_THAT(
      traceError({f32({4}), spec(DType::I1, {})},
                 [](Tensor x, Tensor p) {
                   return cond(p, [&] { return x; }, [&] { return sum(x); });
                 }),
      HasSubstr("cond: branch 1's results and branch 0's must match: got "
                "(f32[]) but expected (f32[4])"));
}

TEST(TraceTest, TensorsDoNotEscapeRegions) {
  EXPECT_THAT(traceError({f32({4}), spec(DType::I1, {})},
                         [](Tensor x, Tensor p) {
                           Tensor inner;
                           cond(p,
                                [&] {
                                  inner = x * 2.0;
                                  return x;
                                },
                                [&] { return x; });
                           return inner + 1.0;
                         }),
              HasSubstr("add: operand f32[4] was made inside a loop, branch "
                        "or called function that has ended"));
}

TEST(TraceTest, CallTracesEachSignatureOnce) {
  auto fn = trace("f", {f32({4}), f32({2})}, [](Tensor a, Tensor b) {
    auto sq = [](const TensorList &in) { return TensorList{in[0] * in[0]}; };
    Tensor x = call("square", sq, {a})[0];
    Tensor y = call("square", sq, {x})[0];
    Tensor z = call("square", sq, {b})[0];
    return std::make_tuple(y, z);
  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  std::string ir = fn->toString();
  EXPECT_THAT(ir, HasSubstr("func.func private @square(%arg0: tensor<4xf32>"));
  EXPECT_THAT(ir, HasSubstr("func.func private @square_1(%arg0: tensor<2xf32>"));
  EXPECT_THAT(ir, HasSubstr("torus.call @square(%0)"));
}

TEST(TraceTest, RandomNumbers) {
  auto out = outputsOf({f32({3, 4})}, [](Tensor x) {
    Tensor keys = randomSplit(randomKey(42), 3);
    return std::make_tuple(keys, randomUniform(keys[0], {5}),
                           randomNormal(keys[1], {2, 2}, DType::F64),
                           dropout(keys[2], x, 0.5), randomBits(keys[0], {3},
                                                                DType::I64));
  });
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0], spec(DType::I64, {3, 2}));
  EXPECT_EQ(out[1], f32({5}));
  EXPECT_EQ(out[2], spec(DType::F64, {2, 2}));
  EXPECT_EQ(out[3], f32({3, 4}));
  EXPECT_EQ(out[4], spec(DType::I64, {3}));
  EXPECT_THAT(traceError({f32({3})},
                         [](Tensor x) { return dropout(randomKey(1), x, 1.0); }),
              HasSubstr("dropout: rate 1 is not in [0, 1)"));
  EXPECT_THAT(traceError({f32({2})},
                         [](Tensor x) { return randomUniform(x, {2}); }),
              HasSubstr("a random key is an i64[2] tensor"));
}

TEST(TraceTest, Collectives) {
  auto out = outputsOf({f32({4, 6})}, [](Tensor x) {
    return std::make_tuple(allGather(x, 0, 4),
                           allGather(x, 1, {{0, 1}, {2, 3}}),
                           reduceScatter(x, 1, 3, ReduceOp::Max),
                           allToAll(x, 0, 1, 2, {{0, 1}, {2, 3}}),
                           collectivePermute(x, {{0, 1}, {1, 0}}),
                           partitionId());
  });
  ASSERT_EQ(out.size(), 6u);
  EXPECT_EQ(out[0], f32({16, 6}));
  EXPECT_EQ(out[1], f32({4, 12}));
  EXPECT_EQ(out[2], f32({4, 2}));
  EXPECT_EQ(out[3], f32({2, 12}));
  EXPECT_EQ(out[4], f32({4, 6}));
  EXPECT_EQ(out[5], spec(DType::I32, {}));
  EXPECT_THAT(traceError({f32({4, 6})},
                         [](Tensor x) { return reduceScatter(x, 1, 4); }),
              HasSubstr("reduce_scatter: scatter dimension 1 of size 6 does "
                        "not split into 4 equal blocks (operand [4,6])"));
  EXPECT_THAT(traceError({f32({4})},
                         [](Tensor x) {
                           return collectivePermute(x, {{0, 1}, {2, 1}});
                         }),
              HasSubstr("replica 1 is a target twice"));
}

TEST(TraceTest, TracedModuleVerifies) {
  // Everything the API emits must pass the verifiers (trace() verifies).
  auto fn = trace("f", {f32({2, 8, 8, 3}), spec(DType::I32, {2})},
                  [](Tensor x, Tensor labels) {
                    Tensor w = ones({3, 3, 3, 4});
                    Tensor h = relu(conv2d(x, w, {1, 1}, Padding::same()));
                    h = maxPool2d(h, {2, 2});
                    Tensor logits = reshape(mean(h, {1, 2}), {2, 4});
                    Tensor loss = -mean(sum(oneHot(labels, 4) *
                                                logSoftmax(logits),
                                            {-1}));
                    return loss;
                  });
  ASSERT_TRUE(fn.ok()) << fn.status();
  EXPECT_EQ(fn->outputs(), std::vector<TensorSpec>{f32({})});
}
