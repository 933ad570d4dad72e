//===- TextLineDatasetTest.cpp - File datasets and FILE auto-sharding -----===//
//
// Dataset::textLine (tf.data.TextLineDataset) and autoShardDataset under
// FILE / AUTO / DATA (spec §3.6): each worker reads whole files, fewer files
// than workers is TensorFlow's require_non_empty error, and a FILE-sharded
// pipeline keeps the modern rebatch (spec §3.7's note on the tutorial).
//
//===----------------------------------------------------------------------===//

#include "torus/distribute/Distribute.h"
#include "distribute/TestUtil.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace torus::distribute {
namespace {

using namespace testing;
using V = std::vector<std::vector<int64_t>>;

/// Writes `text` to a fresh file in the test's temp dir and returns its path.
std::string writeFile(const std::string &name, const std::string &text) {
  std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / "torus-textline";
  std::filesystem::create_directories(dir);
  std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// A file of the numbers [from, to), one per line.
std::string numbers(const std::string &name, int from, int to) {
  std::string text;
  for (int i = from; i < to; ++i)
    text += std::to_string(i) + "\n";
  return writeFile(name, text);
}

std::string lineOf(const HostTensor &t) {
  auto bytes = t.data<uint8_t>();
  return std::string(bytes.begin(), bytes.end());
}

std::vector<std::string> lines(const Dataset &d) {
  auto all = d.toVector();
  EXPECT_TRUE(all.ok()) << all.status();
  std::vector<std::string> out;
  if (all.ok())
    for (const Element &e : *all)
      out.push_back(lineOf(e[0]));
  return out;
}

/// Lines parsed into int64 scalars (what a user maps them into).
Dataset parsed(const Dataset &d) {
  return d.map(
      [](const Element &e) -> absl::StatusOr<Element> {
        return Element{HostTensor::scalar<int64_t>(std::stoll(lineOf(e[0])))};
      },
      ElementSpec{{DType::I64, {}}});
}

std::vector<int64_t> values(const Dataset &d) {
  std::vector<int64_t> out;
  auto all = d.toVector();
  EXPECT_TRUE(all.ok()) << all.status();
  if (all.ok())
    for (const Element &e : *all)
      out.push_back(e[0].data<int64_t>()[0]);
  return out;
}

TEST(TextLineDatasetTest, ReadsTheLinesOfEachFileInTurn) {
  std::string a = writeFile("a.txt", "first\nsecond line\r\n\nlast, no newline");
  std::string b = writeFile("b.txt", "");
  std::string c = writeFile("c.txt", "c1\n");
  Dataset d = Dataset::textLine({a, b, c});
  EXPECT_EQ(d.typeName(), "TextLineDataset");
  EXPECT_EQ(d.elementSpec()[0].toString(),
            "TensorSpec(shape=(None,), dtype=tf.uint8, name=None)");
  EXPECT_EQ(d.cardinality(), kUnknownCardinality);
  EXPECT_THAT(lines(d), ElementsAre("first", "second line", "",
                                    "last, no newline", "c1"));
  // Each pass reads the files again.
  EXPECT_THAT(lines(d.repeat(2)).size(), 10u);
  EXPECT_THAT(lines(Dataset::textLine({})), ::testing::IsEmpty());
  std::string missing = (std::filesystem::path(::testing::TempDir()) /
                         "torus-textline" / "missing.txt")
                            .string();
  EXPECT_STATUS(Dataset::textLine({c, missing}).toVector(),
                absl::StatusCode::kNotFound,
                missing + "; No such file or directory");
}

TEST(TextLineDatasetTest, FileShardingGivesEachWorkerWholeFiles) {
  std::vector<std::string> files{numbers("f0.txt", 0, 3), numbers("f1.txt", 10, 12),
                                 numbers("f2.txt", 20, 23)};
  for (AutoShardPolicy policy : {AutoShardPolicy::File, AutoShardPolicy::Auto}) {
    SCOPED_TRACE(autoShardPolicyName(policy));
    Dataset d = parsed(Dataset::textLine(files)).withOptions({policy});
    TORUS_ASSERT_OK_AND_ASSIGN(Dataset w0, autoShardDataset(d, 2, 0, 2));
    TORUS_ASSERT_OK_AND_ASSIGN(Dataset w1, autoShardDataset(d, 2, 1, 2));
    EXPECT_THAT(values(w0), ElementsAre(0, 1, 2, 20, 21, 22));
    EXPECT_THAT(values(w1), ElementsAre(10, 11));
  }
  // DATA shards the lines instead, whatever the files.
  Dataset data =
      parsed(Dataset::textLine(files)).withOptions({AutoShardPolicy::Data});
  TORUS_ASSERT_OK_AND_ASSIGN(Dataset w1, autoShardDataset(data, 2, 1, 2));
  EXPECT_THAT(values(w1), ElementsAre(1, 10, 20, 22));
  // OFF: everything.
  Dataset off = parsed(Dataset::textLine(files)).withOptions({AutoShardPolicy::Off});
  TORUS_ASSERT_OK_AND_ASSIGN(Dataset all, autoShardDataset(off, 2, 1, 2));
  EXPECT_EQ(values(all).size(), 8u);
}

TEST(TextLineDatasetTest, FewerFilesThanWorkers) {
  // One file, two workers: worker 0 fails on its first element, worker 1
  // reads nothing (require_non_empty, shard_dataset_op.cc).
  Dataset d = Dataset::textLine({numbers("one.txt", 0, 4)});
  TORUS_ASSERT_OK_AND_ASSIGN(Dataset w0, autoShardDataset(d, 2, 0, 2));
  EXPECT_STATUS(w0.toVector(), absl::StatusCode::kInvalidArgument,
                "Could not apply FILE based sharding: the dataset only has 1 "
                "file(s), which is not enough for the required 2 "
                "shards/workers. If you are using datasets with distribution "
                "strategy, consider setting the auto sharding policy to "
                "either DATA or OFF using the "
                "`experimental_distribute.auto_shard_policy` option of "
                "`tf.data.Options()`.");
  TORUS_ASSERT_OK_AND_ASSIGN(Dataset w1, autoShardDataset(d, 2, 1, 2));
  EXPECT_THAT(lines(w1), ::testing::IsEmpty());
}

TEST(TextLineDatasetTest, FileShardedInputKeepsTheModernSplit) {
  // One worker, two replicas, 6 lines batched by 4: AUTO shards by file, so
  // the rebatch stays modern: [0,1] [2,3] then [4,5] and a dummy [] (an
  // in-memory range(6) gives the legacy [4] [5]).
  TORUS_ASSERT_OK_AND_ASSIGN(MirroredStrategy strategy,
                             MirroredStrategy::create({"GPU:0", "GPU:1"}));
  auto steps = [&](const Dataset &d) {
    V out;
    auto dist = strategy.experimentalDistributeDataset(d);
    EXPECT_TRUE(dist.ok()) << dist.status();
    auto it = dist->makeIterator();
    EXPECT_TRUE(it.ok()) << it.status();
    while (true) {
      auto next = it->next();
      if (!next.ok())
        break;
      auto step = testing::perReplicaInts({*next});
      for (const auto &replica : step[0])
        out.push_back(replica);
    }
    return out;
  };
  EXPECT_EQ(steps(parsed(Dataset::textLine({numbers("six.txt", 0, 6)})).batch(4)),
            (V{{0, 1}, {2, 3}, {4, 5}, {}}));
  EXPECT_EQ(steps(Dataset::range(6).batch(4)), (V{{0, 1}, {2, 3}, {4}, {5}}));
}

} // namespace
} // namespace torus::distribute
