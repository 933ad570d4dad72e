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

TEST(TraceTest, MixedDTypesAreAnError) {
  auto fn = trace("m", {f32({2}), {DType::I32, {2}}},
                  [](const std::vector<Tensor> &in) {
                    return std::vector<Tensor>{in[0] * in[1]};
                  });
  ASSERT_FALSE(fn.ok());
  EXPECT_THAT(std::string(fn.status().message()),
              HasSubstr("multiply: operand dtypes differ: f32[2] and i32[2]"));
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
