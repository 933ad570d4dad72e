//===- CheckpointTest.cpp - Saving and restoring training state -----------===//

#include "torus/distribute/Checkpoint.h"
#include "distribute/TestUtil.h"
#include "distribute/nn/MlpTraining.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace torus::distribute {
namespace {

using namespace testing;
namespace fs = std::filesystem;

class CheckpointTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("torus-ckpt-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  /// Every variable's components, copied.
  static std::vector<std::vector<HostTensor>> snapshot(MlpTrainer &t) {
    std::vector<std::vector<HostTensor>> out;
    for (const Variable &v : t.model().weights())
      out.push_back(v.components());
    for (const Variable &v : t.model().trainableVariables())
      for (const auto &[name, slot] : t.optimizer().slotsFor(v))
        out.push_back(slot.components());
    out.push_back(t.optimizer().iterations().components());
    return out;
  }
  static bool bitIdentical(const std::vector<std::vector<HostTensor>> &a,
                           const std::vector<std::vector<HostTensor>> &b) {
    if (a.size() != b.size())
      return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].size() != b[i].size())
        return false;
      for (size_t k = 0; k < a[i].size(); ++k)
        if (a[i][k].spec() != b[i][k].spec() ||
            std::memcmp(a[i][k].rawData(), b[i][k].rawData(),
                        a[i][k].sizeInBytes()) != 0)
          return false;
    }
    return true;
  }

  fs::path dir_;
};

TEST_F(CheckpointTest, RestoreResumesTrainingBitForBit) {
  TORUS_ASSERT_OK_AND_ASSIGN(MirroredStrategy strategy,
                             MirroredStrategy::withReplicas(4));
  MlpConfig config;
  TORUS_ASSERT_OK_AND_ASSIGN(
      auto first, MlpTrainer::create(strategy, config, std::make_shared<nn::Adam>(0.01)));
  ASSERT_TRUE(first->startData().ok());
  for (int s = 0; s < 5; ++s)
    ASSERT_TRUE(first->step().ok());
  Checkpoint ckpt({{"model", &first->model()}, {"optimizer", &first->optimizer()}});
  TORUS_ASSERT_OK_AND_ASSIGN(std::string path, ckpt.save((dir_ / "ckpt").string()));
  EXPECT_EQ(path, (dir_ / "ckpt-1").string());
  TORUS_ASSERT_OK_AND_ASSIGN(std::string latest, latestCheckpoint(dir_.string()));
  EXPECT_EQ(latest, path);
  std::vector<float> losses;
  for (int s = 0; s < 5; ++s) {
    TORUS_ASSERT_OK_AND_ASSIGN(float loss, first->step());
    losses.push_back(loss);
  }
  auto expected = snapshot(*first);

  // A fresh model and optimizer (other layer names, no slots yet).
  TORUS_ASSERT_OK_AND_ASSIGN(
      auto second, MlpTrainer::create(strategy, config, std::make_shared<nn::Adam>(0.01)));
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    Checkpoint restore({{"model", &second->model()}, {"optimizer", &second->optimizer()}});
    ASSERT_TRUE(restore.restore(path).ok());
  }
  EXPECT_EQ(ints(second->optimizer().iterations().components()[0]),
            std::vector<int64_t>{5});
  ASSERT_TRUE(second->startData(/*skipSteps=*/5).ok());
  for (int s = 0; s < 5; ++s) {
    TORUS_ASSERT_OK_AND_ASSIGN(float loss, second->step());
    EXPECT_EQ(loss, losses[s]) << "step " << s;
  }
  EXPECT_TRUE(bitIdentical(snapshot(*second), expected));
  // No temporary files are left behind.
  for (const auto &entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos);
}

TEST_F(CheckpointTest, NumberingContinuesAfterRestoreAndNeverOverwrites) {
  TORUS_ASSERT_OK_AND_ASSIGN(MirroredStrategy strategy,
                             MirroredStrategy::withReplicas(2));
  MlpConfig config;
  TORUS_ASSERT_OK_AND_ASSIGN(
      auto first, MlpTrainer::create(strategy, config,
                                     std::make_shared<nn::SGD>(0.1, 0.9)));
  ASSERT_TRUE(first->startData().ok());
  ASSERT_TRUE(first->step().ok());
  const std::string prefix = (dir_ / "ckpt").string();
  Checkpoint ckpt({{"model", &first->model()}, {"optimizer", &first->optimizer()}});
  for (int i = 1; i <= 3; ++i) {
    TORUS_ASSERT_OK_AND_ASSIGN(std::string path, ckpt.save(prefix));
    EXPECT_EQ(path, prefix + "-" + std::to_string(i));
  }
  auto sizeOf = [](const std::string &p) { return fs::file_size(p); };
  auto timeOf = [](const std::string &p) { return fs::last_write_time(p); };
  const auto ckpt1Time = timeOf(prefix + "-1");
  const auto ckpt3Size = sizeOf(prefix + "-3");

  // A restart: a new process restores the latest and saves again, as
  // TensorFlow's CheckpointManager does, after the restored number.
  TORUS_ASSERT_OK_AND_ASSIGN(
      auto second, MlpTrainer::create(strategy, config,
                                      std::make_shared<nn::SGD>(0.1, 0.9)));
  Checkpoint resumed(
      {{"model", &second->model()}, {"optimizer", &second->optimizer()}});
  TORUS_ASSERT_OK_AND_ASSIGN(std::string latest, latestCheckpoint(dir_.string()));
  EXPECT_EQ(latest, prefix + "-3");
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    ASSERT_TRUE(resumed.restore(latest).ok());
  }
  TORUS_ASSERT_OK_AND_ASSIGN(std::string next, resumed.save(prefix));
  EXPECT_EQ(next, prefix + "-4");
  TORUS_ASSERT_OK_AND_ASSIGN(latest, latestCheckpoint(dir_.string()));
  EXPECT_EQ(latest, prefix + "-4");
  EXPECT_EQ(timeOf(prefix + "-1"), ckpt1Time);
  EXPECT_EQ(sizeOf(prefix + "-3"), ckpt3Size);

  // Without a restore, a save skips the numbers already taken.
  Checkpoint fresh({{"model", &first->model()}, {"optimizer", &first->optimizer()}});
  TORUS_ASSERT_OK_AND_ASSIGN(std::string skipped, fresh.save(prefix));
  EXPECT_EQ(skipped, prefix + "-5");
  EXPECT_EQ(timeOf(prefix + "-1"), ckpt1Time);

  EXPECT_EQ(checkpointNumber(prefix + "-12"), 12);
  EXPECT_EQ(checkpointNumber(prefix + "-x"), std::nullopt);
  EXPECT_EQ(checkpointNumber((dir_ / "good").string()), std::nullopt);
}

TEST_F(CheckpointTest, AnUnreadableIndexIsAnErrorNotAFreshStart) {
  // No index: nothing saved yet.
  EXPECT_EQ(latestCheckpoint(dir_.string()).status().code(),
            absl::StatusCode::kNotFound);
  const std::string index = (dir_ / "checkpoint").string();
  for (const std::string &content :
       {std::string(), std::string("\x93garbage\n"),
        std::string("model_checkpoint_path: \"ckpt-3\n"),
        std::string("model_checkpoint_path: \"\"\n")}) {
    std::ofstream(index, std::ios::binary | std::ios::trunc) << content;
    auto latest = latestCheckpoint(dir_.string());
    ASSERT_FALSE(latest.ok()) << content;
    EXPECT_EQ(latest.status().code(), absl::StatusCode::kDataLoss) << content;
    EXPECT_THAT(std::string(latest.status().message()),
                HasSubstr("the checkpoint index '" + index + "' is unreadable"));
  }
  std::ofstream(index, std::ios::binary | std::ios::trunc)
      << "model_checkpoint_path: \"ckpt-3\"\n";
  TORUS_ASSERT_OK_AND_ASSIGN(std::string latest, latestCheckpoint(dir_.string()));
  EXPECT_EQ(latest, dir_.string() + "/ckpt-3");
}

TEST_F(CheckpointTest, TruncatedOrCorruptedFilesChangeNothing) {
  TORUS_ASSERT_OK_AND_ASSIGN(MirroredStrategy strategy,
                             MirroredStrategy::withReplicas(2));
  MlpConfig config;
  TORUS_ASSERT_OK_AND_ASSIGN(
      auto trainer, MlpTrainer::create(strategy, config, std::make_shared<nn::SGD>(0.1, 0.9)));
  ASSERT_TRUE(trainer->startData().ok());
  ASSERT_TRUE(trainer->step().ok());
  Checkpoint ckpt({{"model", &trainer->model()}, {"optimizer", &trainer->optimizer()}});
  std::string path = (dir_ / "good").string();
  ASSERT_TRUE(ckpt.write(path).ok());
  ASSERT_TRUE(trainer->step().ok()); // the variables move on
  auto before = snapshot(*trainer);

  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  auto writeFile = [&](const std::string &name, const std::string &content) {
    std::string p = (dir_ / name).string();
    std::ofstream(p, std::ios::binary) << content;
    return p;
  };
  std::string truncated = writeFile("truncated", bytes.substr(0, bytes.size() / 2));
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x40;
  std::string corrupted = writeFile("corrupted", flipped);
  std::string empty = writeFile("empty", "");

  auto status = ckpt.restore(truncated);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr("truncated"));
  status = ckpt.restore(corrupted);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr("checksum mismatch"));
  EXPECT_EQ(ckpt.restore(empty).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(ckpt.restore((dir_ / "missing").string()).code(),
            absl::StatusCode::kNotFound);
  EXPECT_TRUE(bitIdentical(snapshot(*trainer), before));

  // Every truncation and every single flipped byte — in the magic, the
  // version, the entry headers, the data, the length, the hash or the end
  // marker — is an error, and no variable changes.
  std::vector<size_t> lengths = {1, 7, 8, 12, 20, bytes.size() / 3,
                                 bytes.size() - 24, bytes.size() - 16,
                                 bytes.size() - 8, bytes.size() - 1};
  for (size_t n : lengths) {
    std::string p = writeFile("cut", bytes.substr(0, n));
    auto s = ckpt.restore(p);
    EXPECT_FALSE(s.ok()) << "truncated to " << n << " of " << bytes.size();
  }
  std::vector<size_t> positions = {0, 7, 8, 12, 20, 24};
  for (size_t at = 31; at < bytes.size(); at += 61)
    positions.push_back(at);
  for (size_t back = 1; back <= 24; back += 4)
    positions.push_back(bytes.size() - back);
  for (size_t at : positions) {
    std::string bad = bytes;
    bad[at] ^= 0x01;
    std::string p = writeFile("flipped", bad);
    auto s = ckpt.restore(p);
    EXPECT_FALSE(s.ok()) << "byte " << at << " of " << bytes.size();
  }
  EXPECT_TRUE(bitIdentical(snapshot(*trainer), before));
  // Trailing garbage after the end marker is rejected too.
  EXPECT_FALSE(ckpt.restore(writeFile("longer", bytes + "x")).ok());
  EXPECT_TRUE(bitIdentical(snapshot(*trainer), before));
  // Restoring never writes: the good file is byte for byte what was saved.
  {
    std::ifstream again(path, std::ios::binary);
    std::string now((std::istreambuf_iterator<char>(again)), {});
    EXPECT_EQ(now, bytes);
  }

  // A file of another model (a variable of a different shape) is rejected
  // before anything is assigned.
  MlpConfig wider = config;
  wider.hidden = 8;
  TORUS_ASSERT_OK_AND_ASSIGN(
      auto other, MlpTrainer::create(strategy, wider, std::make_shared<nn::SGD>(0.1, 0.9)));
  ASSERT_TRUE(other->startData().ok());
  ASSERT_TRUE(other->step().ok());
  Checkpoint otherCkpt({{"model", &other->model()}, {"optimizer", &other->optimizer()}});
  std::string otherPath = (dir_ / "other").string();
  ASSERT_TRUE(otherCkpt.write(otherPath).ok());
  status = ckpt.restore(otherPath);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_TRUE(bitIdentical(snapshot(*trainer), before));

  // The good file still restores.
  ASSERT_TRUE(ckpt.restore(path).ok());
  EXPECT_FALSE(bitIdentical(snapshot(*trainer), before));

  // A model that has not trained yet has no optimizer slots; a rejected
  // file must not leave any behind either (they would be zeros).
  TORUS_ASSERT_OK_AND_ASSIGN(
      auto fresh, MlpTrainer::create(strategy, config, std::make_shared<nn::SGD>(0.1, 0.9)));
  Checkpoint freshCkpt({{"model", &fresh->model()}, {"optimizer", &fresh->optimizer()}});
  status = freshCkpt.restore(otherPath);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  for (const auto &[p, v] : fresh->model().trackedVariables())
    EXPECT_TRUE(fresh->optimizer().slotsFor(v).empty()) << p;
  EXPECT_TRUE(fresh->optimizer().trackedVariables().empty());
  // The matching file creates them and restores their values.
  ASSERT_TRUE(freshCkpt.restore(path).ok());
  for (const auto &[p, v] : fresh->model().trackedVariables())
    EXPECT_EQ(fresh->optimizer().slotsFor(v).size(), 1u) << p;
}

TEST_F(CheckpointTest, SyncOnReadSumIsSavedAggregatedAndRestoredAsShares) {
  TORUS_ASSERT_OK_AND_ASSIGN(MirroredStrategy strategy,
                             MirroredStrategy::withReplicas(2));
  struct Holder : nn::Trackable {
    Variable v;
    std::vector<std::pair<std::string, Variable>> trackedVariables() const override {
      return {{"v", v}};
    }
  } holder;
  {
    TORUS_ASSERT_OK_AND_ASSIGN(Scope scope, strategy.scope());
    TORUS_ASSERT_OK_AND_ASSIGN(
        holder.v, Variable::create(f32(3.0f),
                                   {.synchronization = VariableSynchronization::OnRead,
                                    .aggregation = VariableAggregation::Sum}));
  }
  Checkpoint ckpt({{"h", &holder}});
  std::string path = (dir_ / "sum").string();
  ASSERT_TRUE(ckpt.write(path).ok());
  TORUS_ASSERT_OK_AND_ASSIGN(auto values, Checkpoint::readFile(path));
  EXPECT_EQ(floats(values.at("h/v")), std::vector<float>{6}); // 3 + 3
  ASSERT_TRUE(holder.v.assign(f32(0.0f)).ok());
  ASSERT_TRUE(ckpt.restore(path).ok());
  EXPECT_EQ(floats(holder.v.components()[0]), std::vector<float>{3});
}

} // namespace
} // namespace torus::distribute
