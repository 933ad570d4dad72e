//===- WorkerGroup.cpp - The worker processes of one training job ---------===//

#include "runtime/multiworker/WorkerGroup.h"

#include "runtime/multiworker/Rendezvous.h"

#include "runtime/collectives/Reduction.h"
#include "support/DTypeDispatch.h"

#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/alltoall.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/rendezvous/context.h>
#include <gloo/transport/tcp/device.h>
#include <gloo/transport/unbound_buffer.h>
#include <gloo/types.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <type_traits>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

namespace torus::rt {

namespace fs = std::filesystem;

namespace {

std::chrono::milliseconds toMillis(absl::Duration d) {
  return std::chrono::milliseconds(
      std::max<int64_t>(1, absl::ToInt64Milliseconds(d)));
}

std::string hostName() {
  char buffer[256] = {};
  if (gethostname(buffer, sizeof(buffer) - 1) != 0)
    return "localhost";
  return buffer;
}

std::optional<std::string> readFile(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    return std::nullopt;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Whether process `pid` of this host has exited (gone or a zombie).
bool processGone(int64_t pid) {
  auto stat = readFile("/proc/" + std::to_string(pid) + "/stat");
  if (!stat)
    return true;
  // pid (comm) state ...: the state follows the last ')'.
  size_t close = stat->rfind(')');
  if (close == std::string::npos || close + 2 >= stat->size())
    return false;
  char state = (*stat)[close + 2];
  return state == 'Z' || state == 'X';
}

/// Gloo's TCP transport writes with writev(), which raises SIGPIPE when
/// the peer has closed its socket: a worker whose peer died was killed by
/// it instead of getting the error Gloo then returns (and the next worker
/// to look found two dead peers). Broken pipes are errors here, as in most
/// network servers; a handler the program installed itself is kept.
void ignoreBrokenPipes() {
  struct sigaction current {};
  if (sigaction(SIGPIPE, nullptr, &current) == 0 &&
      current.sa_handler == SIG_DFL)
    signal(SIGPIPE, SIG_IGN);
}

std::string joinNames(const std::vector<std::string> &names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i)
      out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

/// A TCP socket listening on `host` (an IPv4 address or name) at a port
/// the kernel picks; returns the socket and "host:port", or -1 when it
/// cannot be made (the worker then has no probe port). Connections are
/// never accepted: the kernel's handshake is the answer a probe wants.
std::pair<int, std::string> listenForProbes(const std::string &host) {
  addrinfo hints{}, *found = nullptr;
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  if (getaddrinfo(host.c_str(), "0", &hints, &found) != 0 || !found)
    return {-1, ""};
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  bool ok = fd >= 0 && bind(fd, found->ai_addr, found->ai_addrlen) == 0 &&
            listen(fd, 64) == 0;
  freeaddrinfo(found);
  sockaddr_in bound{};
  socklen_t length = sizeof(bound);
  if (!ok || getsockname(fd, reinterpret_cast<sockaddr *>(&bound),
                         &length) != 0) {
    if (fd >= 0)
      close(fd);
    return {-1, ""};
  }
  char text[INET_ADDRSTRLEN] = {};
  inet_ntop(AF_INET, &bound.sin_addr, text, sizeof(text));
  return {fd, fmt::format("{}:{}", text, ntohs(bound.sin_port))};
}

} // namespace

WorkerGroup::WorkerGroup(WorkerGroupOptions options)
    : options_(std::move(options)) {}

WorkerGroup::~WorkerGroup() {
  if (probeSocket_ >= 0)
    close(probeSocket_);
}

absl::StatusOr<std::shared_ptr<WorkerGroup>>
WorkerGroup::connect(const WorkerGroupOptions &options) {
  if (options.size < 1)
    return absl::InvalidArgumentError(fmt::format(
        "a worker group needs at least one worker, got size {}", options.size));
  if (options.rank < 0 || options.rank >= options.size)
    return absl::InvalidArgumentError(
        fmt::format("worker rank {} is outside 0..{} (the group has {} "
                    "worker{})",
                    options.rank, options.size - 1, options.size,
                    options.size == 1 ? "" : "s"));
  if (!options.names.empty() &&
      static_cast<int>(options.names.size()) != options.size)
    return absl::InvalidArgumentError(
        fmt::format("{} worker names given for a group of {} workers",
                    options.names.size(), options.size));
  if (options.rendezvousDirectory.empty() == options.rendezvousAddress.empty())
    return absl::InvalidArgumentError(
        options.rendezvousDirectory.empty()
            ? "a worker group needs a rendezvous every worker can reach: a "
              "directory or a Redis address (redis://host:port)"
            : fmt::format("a worker group meets in one place: got both the "
                          "rendezvous directory '{}' and the address '{}'",
                          options.rendezvousDirectory,
                          options.rendezvousAddress));
  if (options.prefix.empty() ||
      options.prefix.find('/') != std::string::npos)
    return absl::InvalidArgumentError(fmt::format(
        "the rendezvous prefix '{}' must be a non-empty file name",
        options.prefix));
  if (options.connectTimeout <= absl::ZeroDuration() ||
      options.timeout <= absl::ZeroDuration())
    return absl::InvalidArgumentError(
        "worker group timeouts must be positive");

  ignoreBrokenPipes();
  auto group = std::shared_ptr<WorkerGroup>(new WorkerGroup(options));
  for (int r = 0; r < options.size; ++r)
    group->names_.push_back(options.names.empty() ? fmt::format("worker {}", r)
                                                  : options.names[r]);
  TORUS_ASSIGN_OR_RETURN(group->rendezvous_,
                         openRendezvous(options.rendezvousDirectory,
                                        options.rendezvousAddress,
                                        options.prefix,
                                        options.connectTimeout));

  // Announce this worker; a record left by an earlier job means the
  // directory is not fresh and peers could be confused with old ones.
  const std::string alive = fmt::format("alive-{}", options.rank);
  if (group->rendezvous_->read(alive))
    return absl::FailedPreconditionError(fmt::format(
        "rendezvous {} already has a record of {}: it belongs to an earlier "
        "job; give every job (and every restart) a fresh prefix or directory",
        group->rendezvous_->describe(), group->names_[options.rank]));
  std::string probeAddress;
  std::tie(group->probeSocket_, probeAddress) =
      listenForProbes(options.hostname);
  TORUS_RETURN_IF_ERROR(group->rendezvous_->write(
      alive, fmt::format("{} {} {}\n", getpid(), hostName(), probeAddress)));

  // Wait for every worker to announce itself, then connect (Gloo's own
  // rendezvous then finds everyone present).
  const absl::Time deadline = absl::Now() + options.connectTimeout;
  while (true) {
    std::vector<std::string> missing;
    for (int r = 0; r < options.size; ++r)
      if (!group->rendezvous_->read(fmt::format("alive-{}", r)))
        missing.push_back(group->names_[r]);
    if (missing.empty()) {
      for (int r = 0; r < options.size; ++r) {
        std::istringstream in(
            group->rendezvous_->read(fmt::format("alive-{}", r)).value_or(""));
        int64_t pid = 0;
        std::string host, probe;
        in >> pid >> host >> probe;
        group->probeAddresses_.push_back(probe);
      }
      break;
    }
    if (absl::Now() >= deadline)
      return absl::DeadlineExceededError(fmt::format(
          "{}: {} did not join the job within {} (rendezvous {})",
          group->names_[options.rank], joinNames(missing),
          absl::FormatDuration(options.connectTimeout),
          group->rendezvous_->describe()));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }

  try {
    gloo::transport::tcp::attr attr;
    attr.hostname = options.hostname;
    auto device = gloo::transport::tcp::CreateDevice(attr);
    auto context = std::make_shared<gloo::rendezvous::Context>(options.rank,
                                                               options.size);
    context->setTimeout(toMillis(options.connectTimeout));
    context->connectFullMesh(group->rendezvous_->store(), device);
    // Every pair is connected only once every worker got here: a worker
    // must not leave (or fail) while a peer is still connecting to it.
    gloo::BarrierOptions barrier(context);
    barrier.setTimeout(toMillis(options.connectTimeout));
    gloo::barrier(barrier);
    context->setTimeout(toMillis(options.timeout));
    group->context_ = std::move(context);
  } catch (const std::exception &e) {
    return group->fail("connecting to the other workers", e.what(),
                       options.connectTimeout);
  }
  return group;
}

absl::Status WorkerGroup::status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

std::vector<int> WorkerGroup::deadPeers() const {
  const std::string myHost = hostName();
  std::set<int> dead, named;
  for (int r = 0; r < size(); ++r) {
    if (r == rank())
      continue;
    // Whether its process is gone, asked before reading its failure
    // record: a worker that failed writes the record and then exits, so a
    // gone worker without a record (read after) died without reporting.
    // (The other order raced: a peer that reported and exited between the
    // two reads was named as dead.)
    bool gone = false;
    if (auto alive = rendezvous_->read(fmt::format("alive-{}", r))) {
      std::istringstream in(*alive);
      int64_t pid = 0;
      std::string host;
      in >> pid >> host;
      gone = host == myHost && pid > 0 && processGone(pid);
    }
    if (auto record = rendezvous_->read(fmt::format("failed-{}", r))) {
      // First line: the ranks that worker found dead.
      std::istringstream in(record->substr(0, record->find('\n')));
      std::string token;
      while (std::getline(in, token, ','))
        if (!token.empty())
          named.insert(std::stoi(token));
      continue;
    }
    if (gone)
      dead.insert(r);
  }
  if (dead.empty())
    dead = named;
  dead.erase(rank());
  return {dead.begin(), dead.end()};
}

std::vector<int> WorkerGroup::unreachablePeers() const {
  struct Probe {
    int rank = 0;
    int fd = -1;
    /// Settled: the host answered (handshake or refusal), or it cannot.
    bool done = false;
    bool answered = false;
  };
  std::vector<Probe> probes;
  for (int r = 0; r < size(); ++r) {
    if (r == rank() || r >= static_cast<int>(probeAddresses_.size()))
      continue;
    const std::string &address = probeAddresses_[r];
    const size_t colon = address.rfind(':');
    sockaddr_in peer{};
    peer.sin_family = AF_INET;
    if (colon == std::string::npos ||
        inet_pton(AF_INET, address.substr(0, colon).c_str(),
                  &peer.sin_addr) != 1)
      continue; // no probe port: cannot tell
    peer.sin_port = htons(
        static_cast<uint16_t>(std::atoi(address.c_str() + colon + 1)));
    Probe probe;
    probe.rank = r;
    probe.fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (probe.fd < 0)
      continue;
    if (::connect(probe.fd, reinterpret_cast<sockaddr *>(&peer),
                  sizeof(peer)) == 0 ||
        errno == ECONNREFUSED)
      probe.done = probe.answered = true;
    else if (errno != EINPROGRESS)
      probe.done = true; // no route to it (EHOSTUNREACH, ENETUNREACH)
    probes.push_back(probe);
  }
  // Wait for the handshakes (or refusals) together.
  const absl::Time deadline = absl::Now() + kProbeTimeout;
  while (true) {
    std::vector<pollfd> waiting;
    std::vector<Probe *> owners;
    for (Probe &p : probes)
      if (!p.done) {
        waiting.push_back({p.fd, POLLOUT, 0});
        owners.push_back(&p);
      }
    const int64_t left = absl::ToInt64Milliseconds(deadline - absl::Now());
    if (waiting.empty() || left <= 0)
      break;
    if (poll(waiting.data(), waiting.size(), static_cast<int>(left)) <= 0)
      continue;
    for (size_t i = 0; i < waiting.size(); ++i) {
      if (!waiting[i].revents)
        continue;
      int error = 0;
      socklen_t length = sizeof(error);
      getsockopt(waiting[i].fd, SOL_SOCKET, SO_ERROR, &error, &length);
      owners[i]->done = true;
      owners[i]->answered = error == 0 || error == ECONNREFUSED;
    }
  }
  std::vector<int> unreachable;
  for (Probe &p : probes) {
    if (!p.answered)
      unreachable.push_back(p.rank);
    close(p.fd);
  }
  return unreachable;
}

absl::Status WorkerGroup::fail(const std::string &operation,
                               const std::string &what,
                               absl::Duration timeout) {
  std::vector<int> dead = deadPeers();
  // A peer whose socket just closed may still be exiting: give its process
  // a moment to disappear before concluding nobody died.
  const absl::Time until = absl::Now() + absl::Seconds(1);
  while (dead.empty() && absl::Now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    dead = deadPeers();
  }
  std::string culprits;
  std::vector<std::string> deadNames;
  for (int r : dead) {
    culprits += (culprits.empty() ? "" : ",") + std::to_string(r);
    deadNames.push_back(names_[r]);
  }
  const bool timedOut = what.find("imed out") != std::string::npos ||
                        what.find("imeout") != std::string::npos;
  // Nobody died, but a peer stopped answering (or one that gave up on it
  // closed its connections): is one cut off?
  std::vector<int> unreachable;
  if (deadNames.empty())
    unreachable = unreachablePeers();
  std::vector<std::string> unreachableNames;
  for (int r : unreachable) {
    const std::string &probe = probeAddresses_[r];
    unreachableNames.push_back(fmt::format(
        "{} ({})", names_[r], probe.substr(0, probe.rfind(':'))));
  }
  const std::string how =
      timedOut ? fmt::format("timed out after {}", absl::FormatDuration(timeout))
               : std::string("failed");
  std::string message;
  if (size() > 2 && static_cast<int>(unreachable.size()) == size() - 1)
    message = fmt::format(
        "{}: {} {}: none of the other workers answers ({} unreachable within "
        "{}): this worker's own network link may be down [gloo: {}]",
        names_[rank()], operation, how, joinNames(unreachableNames),
        absl::FormatDuration(kProbeTimeout), what);
  else if (!unreachable.empty())
    message = fmt::format(
        "{}: {} {}: {} {} unreachable (no TCP answer within {}: a cut "
        "network link) [gloo: {}]",
        names_[rank()], operation, how, joinNames(unreachableNames),
        unreachable.size() == 1 ? "is" : "are",
        absl::FormatDuration(kProbeTimeout), what);
  else if (!deadNames.empty())
    message = fmt::format("{}: {} failed: {} {} down (its process exited or "
                          "it failed) [gloo: {}]",
                          names_[rank()], operation, joinNames(deadNames),
                          deadNames.size() == 1 ? "is" : "are", what);
  else if (timedOut)
    message = fmt::format("{}: {} timed out after {}: another worker stopped "
                          "responding [gloo: {}]",
                          names_[rank()], operation,
                          absl::FormatDuration(timeout), what);
  else
    message = fmt::format("{}: {} failed [gloo: {}]", names_[rank()],
                          operation, what);
  // Tell the others what this worker saw before it goes away.
  (void)rendezvous_->write(fmt::format("failed-{}", rank()),
                           culprits + "\n" + message + "\n");
  absl::Status status = (deadNames.empty() && timedOut && unreachable.empty())
                            ? absl::DeadlineExceededError(message)
                            : absl::UnavailableError(message);
  std::lock_guard<std::mutex> lock(mutex_);
  if (error_.ok())
    error_ = status;
  return status;
}

namespace {

/// Declares `count` elements of `width` bytes at `data` as Gloo's output
/// (Gloo splits buffers on element boundaries by the pointer type's size).
template <typename Options>
void setOutputOfWidth(Options &opts, void *data, size_t width, size_t count) {
  switch (width) {
  case 1:
    opts.setOutput(static_cast<uint8_t *>(data), count);
    break;
  case 2:
    opts.setOutput(static_cast<uint16_t *>(data), count);
    break;
  case 4:
    opts.setOutput(static_cast<uint32_t *>(data), count);
    break;
  default:
    opts.setOutput(static_cast<uint64_t *>(data), count);
    break;
  }
}

/// out = a `kind` b, element-wise, for Gloo's ring: a plain loop the
/// compiler vectorizes (Gloo reads the result right back to send it, so
/// reduceRange's streaming stores would only slow it down). Integer sums and
/// products wrap; float max and min propagate NaN (XLA's rules, as in
/// Reduction.h).
template <typename T, bool Integral> struct WrapOf {
  using type = T;
};
template <typename T> struct WrapOf<T, true> {
  using type = WrappingUnsigned<T>;
};

template <typename T>
void combine(ReduceKind kind, void *outRaw, const void *aRaw, const void *bRaw,
             size_t n) {
  T *out = static_cast<T *>(outRaw);
  const T *a = static_cast<const T *>(aRaw);
  const T *b = static_cast<const T *>(bRaw);
  using Wrap = typename WrapOf<T, std::is_integral_v<T>>::type;
  switch (kind) {
  case ReduceKind::Sum:
    for (size_t i = 0; i < n; ++i)
      out[i] = static_cast<T>(static_cast<Wrap>(a[i]) + static_cast<Wrap>(b[i]));
    break;
  case ReduceKind::Product:
    for (size_t i = 0; i < n; ++i)
      out[i] = static_cast<T>(static_cast<Wrap>(a[i]) * static_cast<Wrap>(b[i]));
    break;
  case ReduceKind::Max:
  case ReduceKind::Min:
    // Complex numbers have no order; checkReducible rejects these first.
    if constexpr (!IsComplex<T>) {
      bool max = kind == ReduceKind::Max;
      for (size_t i = 0; i < n; ++i)
        out[i] = a[i] != a[i]                                    ? a[i]
                 : (b[i] != b[i] || (max ? b[i] > a[i] : b[i] < a[i])) ? b[i]
                                                                  : a[i];
    }
    break;
  }
}

using CombineFn = std::function<void(void *, const void *, const void *,
                                     size_t)>;

CombineFn combineFor(ReduceKind kind, DType dtype) {
  auto typed = [kind](auto tag) -> CombineFn {
    using T = decltype(tag);
    return [kind](void *o, const void *a, const void *b, size_t n) {
      combine<T>(kind, o, a, b, n);
    };
  };
  CombineFn fn;
  visitDType(dtype, [&]<typename T>(T) {
    if constexpr (!std::is_same_v<T, bool>)
      fn = typed(T{});
  });
  if (fn)
    return fn;
  switch (dtype) {
  default: // f16, bf16: combined in f32 and rounded, by the runtime's code
    return [kind, dtype](void *out, const void *a, const void *b, size_t n) {
      const void *inputs[2] = {a, b};
      void *outputs[1] = {out};
      reduceRange(kind, dtype, inputs, outputs, 0, static_cast<int64_t>(n));
    };
  }
}

} // namespace

absl::Status WorkerGroup::allReduce(void *data, DType dtype, int64_t count,
                                    ReduceKind kind, absl::Duration timeout) {
  TORUS_RETURN_IF_ERROR(checkReducible(dtype, kind));
  if (count < 0)
    return absl::InvalidArgumentError(
        fmt::format("all-reduce of a negative count {}", count));
  std::lock_guard<std::mutex> op(opMutex_);
  TORUS_RETURN_IF_ERROR(status());
  if (size() == 1 || count == 0)
    return absl::OkStatus();
  try {
    gloo::AllreduceOptions opts(context_);
    opts.setAlgorithm(gloo::AllreduceOptions::Algorithm::RING);
    setOutputOfWidth(opts, data, byteWidth(dtype), static_cast<size_t>(count));
    opts.setReduceFunction(combineFor(kind, dtype));
    opts.setTag(nextTag_++);
    opts.setTimeout(toMillis(timeout));
    gloo::allreduce(opts);
  } catch (const std::exception &e) {
    return fail(fmt::format("all-reduce of {} {} elements across workers",
                            count, dtypeName(dtype)),
                e.what(), timeout);
  }
  return absl::OkStatus();
}

absl::Status WorkerGroup::reduceScatter(const void *in, void *out,
                                        DType dtype, int64_t count,
                                        ReduceKind kind,
                                        absl::Duration timeout) {
  TORUS_RETURN_IF_ERROR(checkReducible(dtype, kind));
  if (count < 0)
    return absl::InvalidArgumentError(
        fmt::format("reduce-scatter of a negative count {}", count));
  std::lock_guard<std::mutex> op(opMutex_);
  TORUS_RETURN_IF_ERROR(status());
  const int W = size(), r = rank();
  const uint32_t tag = nextTag_++;
  const size_t width = byteWidth(dtype);
  const size_t chunkBytes = static_cast<size_t>(count) * width;
  if (count == 0)
    return absl::OkStatus();
  auto inChunk = [&](int c) {
    return static_cast<const uint8_t *>(in) + ((c % W + W) % W) * chunkBytes;
  };
  if (W == 1) {
    std::memmove(out, inChunk(0), chunkBytes);
    return absl::OkStatus();
  }
  // Segments of a chunk travel as separate messages, so each is reduced
  // while the next is still arriving.
  constexpr size_t kSegmentBytes = size_t(1) << 20;
  const size_t segmentElements = std::max<size_t>(1, kSegmentBytes / width);
  const size_t segmentBytes = segmentElements * width;
  const size_t segments = (chunkBytes + segmentBytes - 1) / segmentBytes;
  // What arrives, and two partial sums (the one being sent, the one being
  // reduced), kept from call to call.
  if (scratch_.size() < 3 * chunkBytes)
    scratch_.resize(3 * chunkBytes);
  uint8_t *incoming = scratch_.data();
  uint8_t *partial[2] = {incoming + chunkBytes, incoming + 2 * chunkBytes};
  try {
    CombineFn combine = combineFor(kind, dtype);
    const auto limit = toMillis(timeout);
    // Step s: send chunk r - s - 1 to the next worker (the input's at step
    // 0, after that the partial sum reduced at step s - 1); receive the
    // previous worker's partial sum of chunk r - s - 2 and add this
    // worker's. The last step reduces chunk r, into `out`.
    const uint8_t *send = inChunk(r - 1);
    const gloo::Slot slot = gloo::Slot::build(0xf6, tag);
    for (int s = 0; s < W - 1; ++s) {
      uint8_t *target = s == W - 2 ? static_cast<uint8_t *>(out)
                                   : partial[s % 2];
      const uint8_t *own = inChunk(r - s - 2);
      std::vector<std::unique_ptr<gloo::transport::UnboundBuffer>> recvs,
          sends;
      auto length = [&](size_t k) {
        return std::min(segmentBytes, chunkBytes - k * segmentBytes);
      };
      for (size_t k = 0; k < segments; ++k) {
        recvs.push_back(context_->createUnboundBuffer(
            incoming + k * segmentBytes, length(k)));
        recvs.back()->recv((r + W - 1) % W, slot);
      }
      for (size_t k = 0; k < segments; ++k) {
        sends.push_back(context_->createUnboundBuffer(
            const_cast<uint8_t *>(send) + k * segmentBytes, length(k)));
        sends.back()->send((r + 1) % W, slot);
      }
      for (size_t k = 0; k < segments; ++k) {
        if (!recvs[k]->waitRecv(limit))
          throw std::runtime_error("receive aborted");
        const size_t at = k * segmentBytes;
        combine(target + at, own + at, incoming + at, length(k) / width);
      }
      for (auto &b : sends)
        if (!b->waitSend(limit))
          throw std::runtime_error("send aborted");
      send = target;
    }
  } catch (const std::exception &e) {
    return fail(fmt::format("reduce-scatter of {} {} elements per worker",
                            count, dtypeName(dtype)),
                e.what(), timeout);
  }
  return absl::OkStatus();
}

absl::Status WorkerGroup::broadcast(void *data, size_t bytes, int root,
                                    absl::Duration timeout) {
  if (root < 0 || root >= size())
    return absl::InvalidArgumentError(fmt::format(
        "broadcast root {} is outside 0..{}", root, size() - 1));
  std::lock_guard<std::mutex> op(opMutex_);
  TORUS_RETURN_IF_ERROR(status());
  if (size() == 1 || bytes == 0)
    return absl::OkStatus();
  try {
    gloo::BroadcastOptions opts(context_);
    opts.setOutput(static_cast<uint8_t *>(data), bytes);
    opts.setRoot(root);
    opts.setTag(nextTag_++);
    opts.setTimeout(toMillis(timeout));
    gloo::broadcast(opts);
  } catch (const std::exception &e) {
    return fail(fmt::format("broadcast of {} bytes from {}", bytes,
                            names_[root]),
                e.what(), timeout);
  }
  return absl::OkStatus();
}

absl::Status WorkerGroup::blockCollective(
    const void *in, void *out, size_t bytes, const char *operation,
    absl::Duration timeout,
    const std::function<void(uint8_t *, uint8_t *, uint32_t,
                             std::chrono::milliseconds)> &run) {
  std::lock_guard<std::mutex> op(opMutex_);
  TORUS_RETURN_IF_ERROR(status());
  if (bytes == 0)
    return absl::OkStatus();
  if (size() == 1) {
    std::memmove(out, in, bytes);
    return absl::OkStatus();
  }
  try {
    run(const_cast<uint8_t *>(static_cast<const uint8_t *>(in)),
        static_cast<uint8_t *>(out), nextTag_++, toMillis(timeout));
  } catch (const std::exception &e) {
    return fail(fmt::format(fmt::runtime(operation), bytes), e.what(),
                timeout);
  }
  return absl::OkStatus();
}

absl::Status WorkerGroup::allGather(const void *in, void *out, size_t bytes,
                                    absl::Duration timeout) {
  const size_t total = bytes * size();
  return blockCollective(
      in, out, bytes, "all-gather of {} bytes per worker", timeout,
      [&](uint8_t *input, uint8_t *output, uint32_t tag,
          std::chrono::milliseconds ms) {
        gloo::AllgatherOptions opts(context_);
        opts.setInput(input, bytes);
        opts.setOutput(output, total);
        opts.setTag(tag);
        opts.setTimeout(ms);
        gloo::allgather(opts);
      });
}

absl::Status WorkerGroup::allToAll(const void *in, void *out, size_t bytes,
                                   absl::Duration timeout) {
  const size_t total = bytes * size();
  return blockCollective(
      in, out, bytes, "all-to-all of {} bytes per pair of workers", timeout,
      [&](uint8_t *input, uint8_t *output, uint32_t tag,
          std::chrono::milliseconds ms) {
        gloo::AlltoallOptions opts(context_);
        opts.setInput(input, total);
        opts.setOutput(output, total);
        opts.setTag(tag);
        opts.setTimeout(ms);
        gloo::alltoall(opts);
      });
}

absl::Status WorkerGroup::exchange(const std::vector<Transfer> &sends,
                                   const std::vector<Transfer> &recvs,
                                   absl::Duration timeout) {
  for (const auto *list : {&sends, &recvs}) {
    std::set<int> peers;
    for (const Transfer &t : *list)
      if (t.peer < 0 || t.peer >= size() || t.peer == rank() ||
          !peers.insert(t.peer).second)
        return absl::InvalidArgumentError(fmt::format(
            "point-to-point transfer with worker {}: peers must be other "
            "workers in 0..{}, each at most once per direction",
            t.peer, size() - 1));
  }
  std::lock_guard<std::mutex> op(opMutex_);
  TORUS_RETURN_IF_ERROR(status());
  // One tag per call on every worker, messages or not.
  const uint32_t tag = nextTag_++;
  if (sends.empty() && recvs.empty())
    return absl::OkStatus();
  try {
    // Torus's own slot prefix, apart from Gloo's collectives'.
    const uint64_t slot = gloo::Slot::build(0xf7, tag);
    std::vector<std::unique_ptr<gloo::transport::UnboundBuffer>> in, out;
    for (const Transfer &t : recvs) {
      in.push_back(context_->createUnboundBuffer(t.data, t.bytes));
      in.back()->recv(t.peer, slot);
    }
    for (const Transfer &t : sends) {
      out.push_back(context_->createUnboundBuffer(t.data, t.bytes));
      out.back()->send(t.peer, slot);
    }
    const auto limit = toMillis(timeout);
    for (auto &b : out)
      if (!b->waitSend(limit))
        throw std::runtime_error("send aborted");
    for (auto &b : in)
      if (!b->waitRecv(limit))
        throw std::runtime_error("receive aborted");
  } catch (const std::exception &e) {
    return fail(fmt::format("point-to-point exchange ({} sends, {} receives)",
                            sends.size(), recvs.size()),
                e.what(), timeout);
  }
  return absl::OkStatus();
}

absl::Status WorkerGroup::barrier(absl::Duration timeout) {
  std::lock_guard<std::mutex> op(opMutex_);
  TORUS_RETURN_IF_ERROR(status());
  if (size() == 1)
    return absl::OkStatus();
  try {
    gloo::BarrierOptions opts(context_);
    opts.setTag(nextTag_++);
    opts.setTimeout(toMillis(timeout));
    gloo::barrier(opts);
  } catch (const std::exception &e) {
    return fail("barrier across workers", e.what(), timeout);
  }
  return absl::OkStatus();
}

} // namespace torus::rt
