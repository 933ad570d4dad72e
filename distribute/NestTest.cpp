//===- NestTest.cpp - Nested structures and run() over them ---------------===//

#include "torus/distribute/Distribute.h"
#include "distribute/TestUtil.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::distribute {
namespace {

using namespace testing;

TEST(NestTest, FlattensDepthFirstWithDictKeysSorted) {
  // tf.nest.flatten({"b": [1, 2], "a": 3, "c": {"z": 4, "y": 5}}) is
  // [3, 1, 2, 5, 4].
  Nest<int> n = Nest<int>::dict({{"b", Nest<int>::list({1, 2})},
                                 {"a", 3},
                                 {"c", Nest<int>::dict({{"z", 4}, {"y", 5}})}});
  EXPECT_EQ(n.flatten(), (std::vector<int>{3, 1, 2, 5, 4}));
  EXPECT_EQ(n.structure(), "{'a': ., 'b': [., .], 'c': {'y': ., 'z': .}}");
  EXPECT_EQ(n["c"]["z"].leaf(), 4);
  EXPECT_EQ(n["b"][1].leaf(), 2);
  EXPECT_EQ(n.keys(), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_THROW(n["d"], std::out_of_range);
  EXPECT_THROW(n.leaf(), std::logic_error);
}

TEST(NestTest, PackIsTheInverseOfFlatten) {
  Nest<int> n = Nest<int>::list({Nest<int>::dict({{"x", 1}, {"w", 2}}), 3});
  auto packed = n.pack(std::vector<std::string>{"p", "q", "r"});
  ASSERT_TRUE(packed.ok()) << packed.status();
  EXPECT_EQ((*packed)[0]["w"].leaf(), "p"); // "w" sorts before "x"
  EXPECT_EQ((*packed)[0]["x"].leaf(), "q");
  EXPECT_EQ((*packed)[1].leaf(), "r");
  EXPECT_TRUE(packed->sameStructure(n));
  auto bad = n.pack(std::vector<int>{1, 2});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(bad.status().message()),
            "Could not pack sequence. Structure had 3 atoms, but "
            "flat_sequence had 2 items. Structure: [{'w': ., 'x': .}, .]");
  EXPECT_EQ(n.map([](int v) { return v * 10; }).flatten(),
            (std::vector<int>{20, 10, 30}));
}

TEST(NestTest, RepeatedDictKeyKeepsTheLastValue) {
  Nest<int> n = Nest<int>::dict({{"a", 1}, {"a", 2}});
  EXPECT_EQ(n.flatten(), std::vector<int>{2});
}

// strategy.run(step, args=({"x": x, "y": y},)) returning
// {"loss": ..., "parts": (a, b)}: the structures survive both ways, and a
// second call with the same structure and signature uses the cached step.
TEST(NestTest, RunTakesAndReturnsNestedStructures) {
  TORUS_ASSERT_OK_AND_ASSIGN(MirroredStrategy strategy,
                             MirroredStrategy::create({"GPU:0", "GPU:1"}));
  NestedFunction step("step", [](const Nest<Tensor> &in) {
    Tensor x = in["x"].leaf(), y = in["y"].leaf();
    return Nest<Tensor>::dict(
        {{"loss", x * y}, {"parts", Nest<Tensor>::list({x + y, x - y})}});
  });
  Nest<Value> args = Nest<Value>::dict(
      {{"y", Value(PerReplica({f32(2.0f), f32(3.0f)}))}, {"x", Value(f32(10.0f))}});
  for (int call = 0; call < 2; ++call) {
    TORUS_ASSERT_OK_AND_ASSIGN(Nest<PerReplica> out, strategy.run(step, args));
    EXPECT_EQ(out.structure(), "{'loss': ., 'parts': [., .]}");
    EXPECT_EQ(floats(out["loss"].leaf()[0]), std::vector<float>{20.0f});
    EXPECT_EQ(floats(out["loss"].leaf()[1]), std::vector<float>{30.0f});
    EXPECT_EQ(floats(out["parts"][0].leaf()[1]), std::vector<float>{13.0f});
    EXPECT_EQ(floats(out["parts"][1].leaf()[0]), std::vector<float>{8.0f});
  }
  EXPECT_EQ(step.numCompiles(), 1);
  // Another structure of the same tensors is another step.
  Nest<Value> listArgs = Nest<Value>::list({Value(f32(1.0f)), Value(f32(2.0f))});
  NestedFunction sum("sum", [](const Nest<Tensor> &in) {
    return Nest<Tensor>(in[0].leaf() + in[1].leaf());
  });
  TORUS_ASSERT_OK_AND_ASSIGN(Nest<PerReplica> total, strategy.run(sum, listArgs));
  ASSERT_TRUE(total.isLeaf());
  EXPECT_EQ(floats(total.leaf()[1]), std::vector<float>{3.0f});
}

// A function indexing a key its arguments lack: the replica function's
// exception would escape the trace; it is an error naming the key.
TEST(NestTest, MissingKeyIsAnError) {
  TORUS_ASSERT_OK_AND_ASSIGN(MirroredStrategy strategy,
                             MirroredStrategy::create({"GPU:0", "GPU:1"}));
  NestedFunction step("step", [](const Nest<Tensor> &in) {
    return Nest<Tensor>(in["labels"].leaf());
  });
  auto out = strategy.run(step, Nest<Value>::dict({{"x", Value(f32(1.0f))}}));
  EXPECT_EQ(out.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(out.status().message()),
              HasSubstr("Nest: no key 'labels' in {'x': .}"));
}

} // namespace
} // namespace torus::distribute
