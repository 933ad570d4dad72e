//===- InProcessCommunicator.cpp - Collectives in shared memory -----------===//

#include "runtime/collectives/InProcessCommunicator.h"

#include "runtime/collectives/BlockCopy.h"
#include "runtime/collectives/Reduction.h"
#include "runtime/collectives/StreamingCopy.h"
#include "runtime/trace/TraceRecorder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <climits>
#include <cstring>
#include <optional>
#include <thread>

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace torus::rt {

/// The meeting point of one group for one execution of one collective.
/// The description (key, members, op, algorithm) is set when the first
/// member starts it; arrival state is guarded by `mutex`; waiting members
/// block on `state` (a futex word), whose one-way transitions Waiting ->
/// Complete | Failed | Aborted decide the rendezvous' fate; the work phase
/// uses only the atomics (every member is inside the call by then). Pooled:
/// once closed and left by every member, start() makes it ready for a later
/// execution, reusing its vectors.
struct InProcessCommunicator::Rendezvous {
  enum State : int32_t {
    Waiting = 0,  // gathering members
    Complete = 1, // all arrived: every member does its share
    Failed = 2,   // mismatch or timeout: `error` says why
    Aborted = 3,  // the communicator was aborted before all arrived
    Leading = 4,  // all arrived: the last one does everything (small)
    Done = 5,     // ... and has: the others just return
  };

  /// Guarded by the communicator's mutex: calls with `key` join this
  /// rendezvous while it is open (from start() until it completes; a failed
  /// or aborted one stays open, so latecomers get its error).
  CollectiveKey key;
  bool open = false;
  /// Members that joined and have not returned yet (incremented under the
  /// communicator's mutex): a closed rendezvous is restarted only at 0.
  std::atomic<int32_t> inside{0};

  std::vector<int64_t> members;
  int64_t firstRank = -1;
  CollectiveOp op;
  /// op.resultShape(members.size()).
  Shape result;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::Direct;
  /// What the options choose for `members` (for ops with several
  /// schedules) and its grid: kept while later starts have the same members.
  CollectiveAlgorithm groupAlgorithm = CollectiveAlgorithm::Direct;
  std::optional<GroupGrid> grid;

  std::mutex mutex;
  std::atomic<int32_t> state{Waiting};
  std::vector<const void *> inputs;
  std::vector<void *> outputs;
  std::vector<char> arrived;
  int64_t numArrived = 0;
  /// Set (before `state` becomes Failed) once the rendezvous can never
  /// complete (mismatch, timeout); every member still waiting and every
  /// later one returns it.
  absl::Status error;

  /// Gives a new (closed) rendezvous the capacity of `other`, so that
  /// start() for the same group and collective allocates nothing.
  void prepareLike(const Rendezvous &other);
  /// Makes the rendezvous the open one of `key` in the group `members`,
  /// described by its first member (`rank`, `op`, already checked).
  void start(const CollectiveKey &key, std::span<const int64_t> members,
             int64_t rank, const CollectiveOp &op,
             const CommunicatorOptions &options);

  /// Moves `state` from Waiting to `to` and wakes every waiter; false if it
  /// had already left Waiting.
  bool settle(int32_t to);

  /// Set by the last member to arrive: results go through a staging buffer
  /// because some member's output overlaps its input.
  bool staged = false;
  /// progress[rank]: how many steps of the schedule member `rank` finished;
  /// what it published is readable by peers once they see the count.
  std::unique_ptr<std::atomic<int32_t>[]> progress;
  size_t progressCapacity = 0;
  std::atomic<int32_t> numRead{0};
  std::atomic<int32_t> numFinished{0};
};

namespace {

/// Waits longer than this count as "forever" (and avoid clock overflow).
constexpr absl::Duration kForever = absl::Hours(24 * 365);
/// Broadcast's pipeline segment.
constexpr size_t kBroadcastSegment = size_t{256} << 10;
/// Polls before a waiter blocks: a peer that is running on the other host
/// core publishes within a few microseconds; a blocked one needs a futex.
constexpr int kSpinPolls = 64;

/// Blocks while `word` holds `expected`, for at most `timeout` (spurious
/// wake-ups possible). A raw futex: std::atomic::wait has no timeout.
void futexWait(std::atomic<int32_t> &word, int32_t expected,
               absl::Duration timeout) {
  timespec relative = absl::ToTimespec(
      std::clamp(timeout, absl::ZeroDuration(), absl::Hours(24)));
  syscall(SYS_futex, reinterpret_cast<int32_t *>(&word), FUTEX_WAIT_PRIVATE,
          expected, &relative, nullptr, 0);
}

void futexWakeAll(std::atomic<int32_t> &word) {
  syscall(SYS_futex, reinterpret_cast<int32_t *>(&word), FUTEX_WAKE_PRIVATE,
          INT32_MAX, nullptr, nullptr, 0);
}

/// Waits until `counter` >= `target`. Spins briefly (yielding, so peers on
/// the same host core run), then blocks on the counter.
void waitAtLeast(std::atomic<int32_t> &counter, int32_t target) {
  for (int i = 0; i < kSpinPolls; ++i) {
    if (counter.load(std::memory_order_acquire) >= target)
      return;
    std::this_thread::yield();
  }
  int32_t seen;
  while ((seen = counter.load(std::memory_order_acquire)) < target)
    counter.wait(seen, std::memory_order_acquire);
}

void publish(std::atomic<int32_t> &counter, int32_t value) {
  counter.store(value, std::memory_order_release);
  counter.notify_all();
}

/// Everyone has done `counter`'s step: bumps it and waits for the others.
void barrier(std::atomic<int32_t> &counter, int32_t size) {
  if (counter.fetch_add(1, std::memory_order_acq_rel) + 1 == size) {
    counter.notify_all();
    return;
  }
  waitAtLeast(counter, size);
}

bool overlaps(const void *a, size_t aBytes, const void *b, size_t bBytes) {
  if (aBytes == 0 || bBytes == 0)
    return false;
  auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y + bBytes && y < x + aBytes;
}

/// Whether `kind` has ring and torus schedules in-process.
bool hasSchedules(CollectiveOpKind kind) {
  return kind == CollectiveOpKind::AllReduce ||
         kind == CollectiveOpKind::AllGather ||
         kind == CollectiveOpKind::Broadcast;
}

/// What a participant's thread reuses from call to call: emulated cores are
/// persistent threads, so once these have grown to what a program's
/// collectives need, describing a call and doing a share allocate nothing.
struct ThreadScratch {
  /// The description a named method (allReduce, ...) passes to run().
  CollectiveOp op;
  /// Results of members whose output overlaps their input, until every
  /// member has read its operands.
  std::unique_ptr<char[]> staging;
  size_t stagingBytes = 0;

  char *stagingBuffer(size_t bytes) {
    if (bytes > stagingBytes) {
      staging.reset(new char[bytes]);
      stagingBytes = bytes;
    }
    return staging.get();
  }
};

ThreadScratch &threadScratch() {
  thread_local ThreadScratch scratch;
  return scratch;
}

/// The op a named method describes its call with: the thread's, reset to
/// `kind` and `dtype` with every other field at its default, its (empty)
/// shape and pairs keeping their capacity.
CollectiveOp &describeCall(CollectiveOpKind kind, DType dtype) {
  CollectiveOp &op = threadScratch().op;
  Shape shape = std::move(op.shape);
  SourceTargetPairs pairs = std::move(op.pairs);
  shape.clear();
  pairs.clear();
  op = CollectiveOp{};
  op.kind = kind;
  op.dtype = dtype;
  op.shape = std::move(shape);
  op.pairs = std::move(pairs);
  return op;
}

/// Grid dimensions are mesh axes with extent > 1: x, y, z and on-chip cores.
constexpr size_t kMaxGridDims = 4;

/// One member's share of one rendezvous.
class MemberWork {
public:
  MemberWork(const CollectiveOp &op, std::span<const int64_t> result,
             CollectiveAlgorithm algorithm,
             const std::optional<GroupGrid> &grid,
             std::span<const void *const> inputs,
             std::span<void *const> outputs, std::atomic<int32_t> *progress,
             std::atomic<int32_t> *numRead, bool staged, int64_t rank,
             std::span<const int64_t> members)
      : op_(op), algorithm_(algorithm), grid_(grid), inputs_(inputs),
        outputs_(outputs), progress_(progress), numRead_(numRead),
        staged_(staged), rank_(rank), n_(static_cast<int64_t>(inputs.size())),
        members_(members), width_(byteWidth(op.dtype)), result_(result) {}

  void run() {
    switch (op_.kind) {
    case CollectiveOpKind::AllReduce:
      return allReduce();
    case CollectiveOpKind::AllGather:
      return allGather();
    case CollectiveOpKind::ReduceScatter:
      return staging([&](void *out) { reduceScatter(out); });
    case CollectiveOpKind::AllToAll:
      return staging([&](void *out) { allToAll(out); });
    case CollectiveOpKind::CollectivePermute:
      return staging([&](void *out) { permute(out); });
    case CollectiveOpKind::Broadcast:
      return broadcast();
    }
  }

private:
  /// Computes this member's result into `out` directly, or through the
  /// thread's staging buffer, copied out after every member has read its
  /// operands.
  template <typename Fn> void staging(Fn &&compute) {
    if (!staged_)
      return compute(outputs_[rank_]);
    const size_t bytes = op_.resultBytes(n_);
    char *buffer = threadScratch().stagingBuffer(std::max<size_t>(bytes, 1));
    compute(buffer);
    barrier(*numRead_, static_cast<int32_t>(n_));
    if (bytes)
      std::memcpy(outputs_[rank_], buffer, bytes);
  }

  // --- all-reduce -------------------------------------------------------

  int64_t chunkBegin(int64_t chunk, int64_t count) const {
    return count * chunk / n_;
  }

  void allReduce() {
    const int64_t count = numElements(op_.shape);
    const int64_t begin = chunkBegin(rank_, count);
    const int64_t end = chunkBegin(rank_ + 1, count);
    if (algorithm_ == CollectiveAlgorithm::Direct) {
      reduceRange(op_.reduce, op_.dtype, inputs_, outputs_, begin, end);
      return;
    }
    void *const mine[] = {outputs_[rank_]};
    reduceRange(op_.reduce, op_.dtype, inputs_, mine, begin, end);
    publish(progress_[rank_], 1);
    gather([&](int64_t chunk, const void *from) {
      int64_t b = chunkBegin(chunk, count), e = chunkBegin(chunk + 1, count);
      if (e > b)
        copyMaybeStreaming(static_cast<char *>(outputs_[rank_]) + b * width_,
                           static_cast<const char *>(from) + b * width_,
                           (e - b) * width_);
    });
  }

  // --- all-gather -------------------------------------------------------

  /// Where member `block`'s operand goes in the result.
  BlockIndex gatherOffset(int64_t block) const {
    BlockIndex offset(op_.shape.size(), 0);
    offset[op_.dimension] = block * op_.shape[op_.dimension];
    return offset;
  }

  void allGather() {
    const BlockIndex origin(op_.shape.size(), 0);
    if (staged_ || algorithm_ == CollectiveAlgorithm::Direct) {
      return staging([&](void *out) {
        for (int64_t q = 0; q < n_; ++q)
          copyBlock(inputs_[q], op_.shape, origin, out, result_,
                    gatherOffset(q), op_.shape, width_);
      });
    }
    copyBlock(inputs_[rank_], op_.shape, origin, outputs_[rank_], result_,
              gatherOffset(rank_), op_.shape, width_);
    publish(progress_[rank_], 1);
    gather([&](int64_t block, const void *from) {
      char *to = static_cast<char *>(outputs_[rank_]);
      const char *src = static_cast<const char *>(from);
      forEachRun(result_, gatherOffset(block), op_.shape, width_,
                 [&](size_t at, size_t bytes) {
                   std::memcpy(to + at, src + at, bytes);
                 });
    });
  }

  /// The all-gather half of the Ring and Torus schedules: this member holds
  /// block `rank` in its output (progress 1); afterwards it holds every
  /// block. `copy(block, peerOutput)` copies one block from a peer's output
  /// into ours.
  template <typename Copy> void gather(Copy &&copy) {
    if (algorithm_ == CollectiveAlgorithm::Ring || !grid_) {
      const int64_t pred = (rank_ + n_ - 1) % n_;
      for (int64_t s = 1; s < n_; ++s) {
        waitAtLeast(progress_[pred], static_cast<int32_t>(s));
        copy((rank_ - s + n_) % n_, outputs_[pred]);
        publish(progress_[rank_], static_cast<int32_t>(s + 1));
      }
      return;
    }
    // Torus: one ring per line of grid dimension d, d after d. Before phase
    // d a member holds the blocks of the members that share its position in
    // every dimension >= d.
    const GroupGrid &grid = *grid_;
    const std::vector<int64_t> &mine = grid.positions[rank_];
    const size_t dims = grid.extents.size();
    assert(dims <= kMaxGridDims && mine.size() == dims);
    std::array<int64_t, kMaxGridDims> at{}, position{};
    int32_t base = 1;
    for (size_t d = 0; d < dims; ++d) {
      const int64_t k = grid.extents[d];
      std::copy(mine.begin(), mine.end(), at.begin());
      at[d] = (mine[d] + k - 1) % k;
      const int64_t pred = grid.rankAtPosition(std::span(at).first(dims));
      for (int64_t s = 1; s < k; ++s) {
        waitAtLeast(progress_[pred], base + static_cast<int32_t>(s) - 1);
        // The blocks the member s steps back along d held before phase d.
        std::copy(mine.begin(), mine.end(), position.begin());
        position[d] = (mine[d] - s + k) % k;
        forEachPrefix(grid, d, std::span(position).first(dims),
                      [&](std::span<const int64_t> p) {
                        copy(grid.rankAtPosition(p), outputs_[pred]);
                      });
        publish(progress_[rank_], base + static_cast<int32_t>(s));
      }
      base += static_cast<int32_t>(k - 1);
    }
  }

  /// Calls fn(p) for every grid position p that equals `position` in the
  /// dimensions >= d (dimensions < d take every value); `position` is
  /// scratch.
  template <typename Fn>
  static void forEachPrefix(const GroupGrid &grid, size_t d,
                            std::span<int64_t> position, Fn &&fn) {
    for (size_t j = 0; j < d; ++j)
      position[j] = 0;
    for (;;) {
      fn(std::span<const int64_t>(position));
      size_t j = d;
      while (j > 0) {
        --j;
        if (++position[j] < grid.extents[j])
          break;
        position[j] = 0;
        if (j == 0)
          return;
      }
      if (d == 0)
        return;
    }
  }

  // --- reduce-scatter ---------------------------------------------------

  void reduceScatter(void *out) {
    const int64_t dim = op_.dimension;
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d)
      outer *= op_.shape[d];
    for (size_t d = dim + 1; d < op_.shape.size(); ++d)
      inner *= op_.shape[d];
    const int64_t span = result_[dim] * inner; // elements per outer index
    void *const to[] = {out};
    for (int64_t o = 0; o < outer && span > 0; ++o) {
      const int64_t at = (o * n_ + rank_) * span;
      reduceRangeTo(op_.reduce, op_.dtype, inputs_, at, at + span, to,
                    o * span);
    }
  }

  // --- all-to-all -------------------------------------------------------

  void allToAll(void *out) {
    const int64_t split = op_.splitDimension, concat = op_.concatDimension;
    BlockIndex block(op_.shape.begin(), op_.shape.end());
    block[split] /= n_;
    BlockIndex srcOffset(op_.shape.size(), 0), dstOffset(op_.shape.size(), 0);
    srcOffset[split] = rank_ * block[split];
    for (int64_t q = 0; q < n_; ++q) {
      dstOffset[concat] = q * block[concat];
      copyBlock(inputs_[q], op_.shape, srcOffset, out, result_, dstOffset,
                block, width_);
    }
  }

  // --- collective-permute -----------------------------------------------

  void permute(void *out) {
    const size_t bytes = op_.operandBytes();
    const int64_t me = members_[rank_];
    for (const auto &[source, target] : op_.pairs)
      if (target == me) {
        if (bytes)
          std::memcpy(out, inputs_[source], bytes);
        return;
      }
    if (bytes)
      std::memset(out, 0, bytes);
  }

  // --- broadcast --------------------------------------------------------

  void broadcast() {
    const size_t bytes = op_.operandBytes();
    const int64_t root = op_.root;
    void *out = outputs_[rank_];
    if (rank_ == root || algorithm_ == CollectiveAlgorithm::Direct) {
      if (bytes && out != inputs_[root])
        std::memcpy(out, inputs_[root], bytes);
      return;
    }
    // A pipelined chain in group order from the root.
    const int64_t distance = (rank_ - root + n_) % n_;
    const int64_t pred = (rank_ + n_ - 1) % n_;
    const char *src = static_cast<const char *>(
        distance == 1 ? inputs_[root] : outputs_[pred]);
    const size_t segments =
        std::max<size_t>(1, (bytes + kBroadcastSegment - 1) / kBroadcastSegment);
    for (size_t j = 0; j < segments; ++j) {
      if (distance > 1)
        waitAtLeast(progress_[pred], static_cast<int32_t>(j + 1));
      size_t at = j * kBroadcastSegment;
      size_t len = std::min(kBroadcastSegment, bytes - std::min(bytes, at));
      if (len)
        std::memcpy(static_cast<char *>(out) + at, src + at, len);
      publish(progress_[rank_], static_cast<int32_t>(j + 1));
    }
  }

  const CollectiveOp &op_;
  const CollectiveAlgorithm algorithm_;
  const std::optional<GroupGrid> &grid_;
  std::span<const void *const> inputs_;
  std::span<void *const> outputs_;
  std::atomic<int32_t> *progress_;
  std::atomic<int32_t> *numRead_;
  const bool staged_;
  const int64_t rank_;
  const int64_t n_;
  std::span<const int64_t> members_;
  const size_t width_;
  std::span<const int64_t> result_;
};

std::string describeMismatch(const CollectiveOp &first, const CollectiveOp &op) {
  if (first.kind != op.kind)
    return fmt::format("{} of {}", collectiveOpKindName(op.kind),
                       op.describe());
  return op.describe();
}

} // namespace

bool InProcessCommunicator::Rendezvous::settle(int32_t to) {
  int32_t expected = Waiting;
  if (!state.compare_exchange_strong(expected, to, std::memory_order_acq_rel))
    return false;
  futexWakeAll(state);
  return true;
}

absl::StatusOr<std::unique_ptr<InProcessCommunicator>>
InProcessCommunicator::create(int64_t numReplicas,
                              CommunicatorOptions options) {
  if (numReplicas < 1)
    return absl::InvalidArgumentError(
        fmt::format("in-process communicator needs at least 1 replica, got {}",
                    numReplicas));
  if (options.placement) {
    TORUS_RETURN_IF_ERROR(options.placement->validate());
    if (static_cast<int64_t>(options.placement->coordinates.size()) !=
        numReplicas)
      return absl::InvalidArgumentError(fmt::format(
          "in-process communicator: the placement has {} participants for {} "
          "replicas",
          options.placement->coordinates.size(), numReplicas));
  }
  return std::unique_ptr<InProcessCommunicator>(
      new InProcessCommunicator(numReplicas, std::move(options)));
}

namespace {
std::vector<int64_t> idsUpTo(int64_t n) {
  std::vector<int64_t> ids(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    ids[i] = i;
  return ids;
}
} // namespace

InProcessCommunicator::InProcessCommunicator(int64_t numReplicas,
                                             CommunicatorOptions options)
    : numReplicas_(numReplicas), options_(std::move(options)),
      everyone_(idsUpTo(numReplicas)) {}

InProcessCommunicator::~InProcessCommunicator() = default;

void InProcessCommunicator::abort(const absl::Status &reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (aborted_.load(std::memory_order_relaxed))
    return;
  abortReason_ = reason.ok() ? absl::AbortedError("aborted") : reason;
  aborted_.store(true, std::memory_order_release);
  // Rendezvous still gathering members will never complete; the ones that
  // did complete finish (peers are writing into their outputs).
  for (auto &[key, pool] : pools_)
    for (const auto &rv : pool)
      if (rv->open)
        rv->settle(Rendezvous::Aborted);
}

size_t InProcessCommunicator::numPendingRendezvous() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t open = 0;
  for (const auto &[key, pool] : pools_)
    for (const auto &rv : pool)
      open += rv->open ? 1 : 0;
  return open;
}

size_t InProcessCommunicator::numPooledRendezvous() const {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t held = 0;
  for (const auto &[key, pool] : pools_)
    held += pool.size();
  return held;
}

void InProcessCommunicator::Rendezvous::prepareLike(const Rendezvous &other) {
  const size_t n = other.members.size();
  members = other.members;
  groupAlgorithm = other.groupAlgorithm;
  grid = other.grid;
  op = other.op;
  result.reserve(other.result.size());
  inputs.reserve(n);
  outputs.reserve(n);
  arrived.reserve(n);
  progress = std::make_unique<std::atomic<int32_t>[]>(n);
  progressCapacity = n;
}

void InProcessCommunicator::Rendezvous::start(
    const CollectiveKey &newKey, std::span<const int64_t> newMembers,
    int64_t rank, const CollectiveOp &newOp,
    const CommunicatorOptions &options) {
  const size_t n = newMembers.size();
  key = newKey;
  open = true;
  if (!std::ranges::equal(members, newMembers)) {
    members.assign(newMembers.begin(), newMembers.end());
    grid.reset();
    groupAlgorithm = chooseCollectiveAlgorithm(
        options.algorithm, options.placement ? &*options.placement : nullptr,
        members, &grid);
  }
  firstRank = rank;
  op = newOp;
  result.resize(op.shape.size());
  for (size_t d = 0; d < result.size(); ++d)
    result[d] = op.resultDimension(d, static_cast<int64_t>(n));
  algorithm =
      hasSchedules(op.kind) ? groupAlgorithm : CollectiveAlgorithm::Direct;
  if (op.kind == CollectiveOpKind::Broadcast &&
      algorithm == CollectiveAlgorithm::Torus)
    algorithm = CollectiveAlgorithm::Ring;

  state.store(Waiting, std::memory_order_relaxed);
  inputs.assign(n, nullptr);
  outputs.assign(n, nullptr);
  arrived.assign(n, 0);
  numArrived = 0;
  error = absl::OkStatus();
  staged = false;
  if (progressCapacity < n) {
    progress = std::make_unique<std::atomic<int32_t>[]>(n);
    progressCapacity = n;
  }
  for (size_t i = 0; i < n; ++i)
    progress[i].store(0, std::memory_order_relaxed);
  numRead.store(0, std::memory_order_relaxed);
  numFinished.store(0, std::memory_order_relaxed);
}

InProcessCommunicator::Rendezvous *
InProcessCommunicator::join(const CollectiveKey &key,
                            std::span<const int64_t> members, int64_t rank,
                            const CollectiveOp &op) {
  auto [entry, isNew] =
      pools_.try_emplace(PoolKey{key.collectiveIndex, members[0]});
  Pool &pool = entry->second;
  Rendezvous *spare = nullptr;
  for (const auto &rv : pool) {
    if (rv->open) {
      if (rv->key == key) {
        rv->inside.fetch_add(1, std::memory_order_relaxed);
        return rv.get();
      }
    } else if (!spare && rv->inside.load(std::memory_order_acquire) == 0) {
      spare = rv.get(); // every member of its last execution has left
    }
  }
  if (!spare) {
    pool.push_back(std::make_unique<Rendezvous>());
    spare = pool.back().get();
  }
  spare->start(key, members, rank, op, options_);
  spare->inside.fetch_add(1, std::memory_order_relaxed);
  if (isNew) {
    // The next execution may start while members still leave this one (at
    // most these two are in flight when every member executes the
    // collective in turn): a second rendezvous, sized like the first, so no
    // later execution of the same collective allocates, whichever it uses.
    pool.push_back(std::make_unique<Rendezvous>());
    pool.back()->prepareLike(*spare);
  }
  return spare;
}

void InProcessCommunicator::close(Rendezvous &rv) {
  std::lock_guard<std::mutex> lock(mutex_);
  rv.open = false;
}

CollectiveAlgorithm
InProcessCommunicator::algorithmFor(const CollectiveOp &op,
                                    std::span<const int64_t> members) const {
  if (!hasSchedules(op.kind))
    return CollectiveAlgorithm::Direct;
  CollectiveAlgorithm algorithm = chooseCollectiveAlgorithm(
      options_.algorithm,
      options_.placement ? &*options_.placement : nullptr, members);
  if (op.kind == CollectiveOpKind::Broadcast &&
      algorithm == CollectiveAlgorithm::Torus)
    return CollectiveAlgorithm::Ring;
  return algorithm;
}

absl::Status InProcessCommunicator::run(const CollectiveKey &key,
                                        int64_t replicaId,
                                        const ReplicaGroups &groups,
                                        const CollectiveOp &op, const void *in,
                                        void *out, absl::Duration timeout) {
  const std::string_view kindName = collectiveOpKindName(op.kind);
  if (isAborted()) {
    std::lock_guard<std::mutex> lock(mutex_);
    return absl::AbortedError(fmt::format(
        "run aborted: {}", std::string(abortReason_.message())));
  }
  // collective-permute runs over every participant; its pairs name them.
  const bool permute = op.kind == CollectiveOpKind::CollectivePermute;
  static const ReplicaGroups kEveryone; // one group of every participant
  const ReplicaGroups &effectiveGroups = permute ? kEveryone : groups;
  TORUS_ASSIGN_OR_RETURN(
      ReplicaGroupPosition position,
      locateReplica(effectiveGroups, numReplicas_, replicaId));
  const std::span<const int64_t> members =
      effectiveGroups.empty()
          ? std::span<const int64_t>(everyone_)
          : std::span<const int64_t>(effectiveGroups[position.groupIndex]);
  const int64_t size = static_cast<int64_t>(members.size());
  const int64_t rank = position.rank;
  TORUS_RETURN_IF_ERROR(op.check(size, numReplicas_));
  const size_t inBytes = op.operandBytes();
  const size_t outBytes = op.resultBytes(size);
  if ((inBytes > 0 && !in) || (outBytes > 0 && !out))
    return absl::InvalidArgumentError(
        fmt::format("{} with a null buffer", kindName));
  auto describe = [&] {
    return fmt::format(
        "{} ({}) in replica group {}", kindName, key.toString(),
        formatIdList(std::vector<int64_t>(members.begin(), members.end())));
  };

  // A group of one exchanges nothing: its result is its operand (or zeros
  // for a permute that does not send to itself).
  if (size == 1) {
    bool zero = permute && std::none_of(op.pairs.begin(), op.pairs.end(),
                                        [&](const auto &p) {
                                          return p.second == replicaId;
                                        });
    if (zero && outBytes)
      std::memset(out, 0, outBytes);
    else if (in != out && outBytes)
      std::memmove(out, in, outBytes);
    return absl::OkStatus();
  }

  Rendezvous *rv = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (isAborted())
      return absl::AbortedError(
          fmt::format("{}: run aborted: {}", describe(),
                      std::string(abortReason_.message())));
    rv = join(key, members, rank, op);
  }
  // Leaves the rendezvous on every return below, after the last use of it
  // (declared before any lock of it, so destroyed after them).
  struct Leave {
    Rendezvous &rv;
    ~Leave() { rv.inside.fetch_sub(1, std::memory_order_release); }
  } leave{*rv};

  auto abortedError = [&] {
    std::lock_guard<std::mutex> commLock(mutex_);
    return absl::AbortedError(fmt::format("{}: run aborted: {}", describe(),
                                          std::string(abortReason_.message())));
  };
  std::unique_lock<std::mutex> lock(rv->mutex);
  if (!rv->error.ok())
    return rv->error;
  if (rv->state.load(std::memory_order_acquire) == Rendezvous::Aborted) {
    lock.unlock();
    return abortedError();
  }
  // Every member must describe the same collective as the first one.
  auto fail = [&](absl::Status status) {
    rv->error = status;
    rv->settle(Rendezvous::Failed);
    return status;
  };
  const int64_t firstReplica = rv->members[rv->firstRank];
  if (!std::ranges::equal(rv->members, members))
    return fail(absl::InvalidArgumentError(fmt::format(
        "{}: replica {} is in replica group {} but replica {} is in {}",
        describe(), replicaId,
        formatIdList(std::vector<int64_t>(members.begin(), members.end())),
        firstReplica, formatIdList(rv->members))));
  if (!(rv->op == op))
    return fail(absl::InvalidArgumentError(fmt::format(
        "{}: mismatched operands: replica {} passed {} but replica {} passed "
        "{}",
        describe(), firstReplica, describeMismatch(op, rv->op), replicaId,
        describeMismatch(rv->op, op))));
  if (rv->arrived[rank])
    return fail(absl::InternalError(
        fmt::format("{}: replica {} joined twice", describe(), replicaId)));

  rv->inputs[rank] = in;
  rv->outputs[rank] = out;
  rv->arrived[rank] = 1;
  ++rv->numArrived;

  // Wait for every member. Once all have arrived the rendezvous is
  // committed (Complete): peers will read our input and may write our
  // output, so neither abort nor the timeout may make us leave. Waiters
  // block on the state word, not on the mutex, so completing a rendezvous
  // of hundreds of members wakes them without a herd on a lock.
  if (rv->numArrived == size) {
    if (op.kind != CollectiveOpKind::AllReduce &&
        op.kind != CollectiveOpKind::Broadcast)
      for (int64_t r = 0; r < size && !rv->staged; ++r)
        rv->staged = overlaps(rv->inputs[r], inBytes, rv->outputs[r], outBytes);
    const bool lead =
        !rv->staged &&
        static_cast<size_t>(size) * std::max(inBytes, outBytes) <=
            options_.smallCollectiveBytes;
    if (!rv->settle(lead ? Rendezvous::Leading : Rendezvous::Complete)) {
      lock.unlock(); // aborted just now
      return abortedError();
    }
    if (lead) {
      // Every share, one after the other, with the direct schedule (the
      // results are the same for every schedule).
      lock.unlock();
      TraceSpan span("move data (every share)", "transfer");
      for (int64_t r = 0; r < size; ++r)
        MemberWork(rv->op, rv->result, CollectiveAlgorithm::Direct, rv->grid,
                   rv->inputs, rv->outputs, rv->progress.get(), &rv->numRead,
                   false, r, rv->members)
            .run();
      rv->state.store(Rendezvous::Done, std::memory_order_release);
      futexWakeAll(rv->state);
      close(*rv);
      return absl::OkStatus();
    }
  } else {
    lock.unlock();
    std::optional<TraceSpan> waiting(std::in_place, "wait for peers", "wait");
    const absl::Time deadline =
        timeout >= kForever ? absl::InfiniteFuture() : absl::Now() + timeout;
    // Waiting for the others (until the deadline), then, if the last one
    // leads, for it to finish (no deadline: every member has arrived).
    auto pending = [&](int32_t s) {
      return s == Rendezvous::Waiting || s == Rendezvous::Leading;
    };
    for (int i = 0;
         i < kSpinPolls && pending(rv->state.load(std::memory_order_acquire));
         ++i)
      std::this_thread::yield();
    for (;;) {
      int32_t s = rv->state.load(std::memory_order_acquire);
      if (!pending(s))
        break;
      absl::Duration left = s == Rendezvous::Leading ? absl::Hours(24)
                                                     : deadline - absl::Now();
      if (left <= absl::ZeroDuration())
        break;
      futexWait(rv->state, s, left);
    }
    waiting.reset();
    lock.lock();
    switch (rv->state.load(std::memory_order_acquire)) {
    case Rendezvous::Complete:
      break;
    case Rendezvous::Leading: {
      // Our deadline passed just as the last member arrived: it is writing
      // our output now, so we must wait for it (it cannot fail).
      lock.unlock();
      int32_t s;
      while ((s = rv->state.load(std::memory_order_acquire)) ==
             Rendezvous::Leading)
        futexWait(rv->state, s, absl::Hours(24));
      return absl::OkStatus();
    }
    case Rendezvous::Done:
      return absl::OkStatus();
    case Rendezvous::Failed:
      return rv->error;
    case Rendezvous::Aborted:
      lock.unlock();
      return abortedError();
    default: { // still waiting: we time out, and so does everyone
      std::vector<int64_t> missing, present;
      for (int64_t i = 0; i < size; ++i)
        (rv->arrived[i] ? present : missing).push_back(members[i]);
      return fail(absl::DeadlineExceededError(fmt::format(
          "{}: replica {} timed out after {} waiting for replica{} {} "
          "(arrived: {})",
          describe(), replicaId, absl::FormatDuration(timeout),
          missing.size() == 1 ? "" : "s", fmt::join(missing, ", "),
          fmt::join(present, ", "))));
    }
    }
  }
  const bool staged = rv->staged;
  lock.unlock();

  {
    TraceSpan span("move data", "transfer");
    MemberWork(rv->op, rv->result, rv->algorithm, rv->grid, rv->inputs,
               rv->outputs, rv->progress.get(), &rv->numRead, staged, rank,
               rv->members)
        .run();
  }

  // Nobody leaves (and frees its buffers) before every share is done.
  // Bounded: every member is in its work phase, which only waits on peers
  // that are themselves working.
  if (rv->numFinished.fetch_add(1, std::memory_order_acq_rel) + 1 == size) {
    rv->numFinished.notify_all();
    close(*rv);
  } else {
    TraceSpan span("wait for peers to finish", "wait");
    waitAtLeast(rv->numFinished, static_cast<int32_t>(size));
  }
  return absl::OkStatus();
}

absl::Status
InProcessCommunicator::allReduce(const CollectiveKey &key, int64_t replicaId,
                                 const ReplicaGroups &groups, ReduceKind kind,
                                 DType dtype, int64_t count, const void *in,
                                 void *out, absl::Duration timeout) {
  if (count < 0)
    return absl::InvalidArgumentError(
        fmt::format("all-reduce of a negative element count {}", count));
  CollectiveOp &op = describeCall(CollectiveOpKind::AllReduce, dtype);
  op.reduce = kind;
  op.shape.push_back(count);
  return run(key, replicaId, groups, op, in, out, timeout);
}

absl::Status InProcessCommunicator::allGather(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    DType dtype, const Shape &shape, int64_t dimension, const void *in,
    void *out, absl::Duration timeout) {
  CollectiveOp &op = describeCall(CollectiveOpKind::AllGather, dtype);
  op.shape.assign(shape.begin(), shape.end());
  op.dimension = dimension;
  return run(key, replicaId, groups, op, in, out, timeout);
}

absl::Status InProcessCommunicator::reduceScatter(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    ReduceKind kind, DType dtype, const Shape &shape, int64_t dimension,
    const void *in, void *out, absl::Duration timeout) {
  CollectiveOp &op = describeCall(CollectiveOpKind::ReduceScatter, dtype);
  op.reduce = kind;
  op.shape.assign(shape.begin(), shape.end());
  op.dimension = dimension;
  return run(key, replicaId, groups, op, in, out, timeout);
}

absl::Status InProcessCommunicator::allToAll(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    DType dtype, const Shape &shape, int64_t splitDimension,
    int64_t concatDimension, int64_t splitCount, const void *in, void *out,
    absl::Duration timeout) {
  CollectiveOp &op = describeCall(CollectiveOpKind::AllToAll, dtype);
  op.shape.assign(shape.begin(), shape.end());
  op.splitDimension = splitDimension;
  op.concatDimension = concatDimension;
  op.splitCount = splitCount;
  return run(key, replicaId, groups, op, in, out, timeout);
}

absl::Status InProcessCommunicator::collectivePermute(
    const CollectiveKey &key, int64_t replicaId, const SourceTargetPairs &pairs,
    DType dtype, const Shape &shape, const void *in, void *out,
    absl::Duration timeout) {
  CollectiveOp &op = describeCall(CollectiveOpKind::CollectivePermute, dtype);
  op.shape.assign(shape.begin(), shape.end());
  op.pairs.assign(pairs.begin(), pairs.end());
  return run(key, replicaId, {}, op, in, out, timeout);
}

absl::Status InProcessCommunicator::broadcast(
    const CollectiveKey &key, int64_t replicaId, const ReplicaGroups &groups,
    int64_t rootRank, DType dtype, const Shape &shape, const void *in,
    void *out, absl::Duration timeout) {
  CollectiveOp &op = describeCall(CollectiveOpKind::Broadcast, dtype);
  op.shape.assign(shape.begin(), shape.end());
  op.root = rootRank;
  return run(key, replicaId, groups, op, in, out, timeout);
}

} // namespace torus::rt
