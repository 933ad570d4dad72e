//===- RedisServer.h - Test helper: a private redis-server ------*- C++ -*-===//
//
// Starts `redis-server` on a free loopback port (no persistence), waits until
// it answers PING and stops it when destroyed. A missing redis-server is a
// failure, not a skip: scripts/install-deps.sh installs it. Test-only.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_MULTIWORKER_REDISSERVER_H
#define TORUS_RUNTIME_MULTIWORKER_REDISSERVER_H

#include "runtime/multiworker/RedisStore.h"

#include <fmt/format.h>

#include <chrono>
#include <csignal>
#include <string>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace torus::rt::testing {

/// A port nobody listens on now (the kernel's pick for port 0).
inline int freeLoopbackPort() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  int port = -1;
  if (fd >= 0 && bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof(addr)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  if (fd >= 0)
    close(fd);
  return port;
}

class RedisServer {
public:
  /// Starts the server; error() says why when it did not come up.
  RedisServer() {
    port_ = freeLoopbackPort();
    if (port_ < 0) {
      error_ = "no free loopback port";
      return;
    }
    const std::string port = std::to_string(port_);
    pid_ = fork();
    if (pid_ == 0) {
      // Quiet: its log goes nowhere.
      freopen("/dev/null", "w", stdout);
      execlp("redis-server", "redis-server", "--port", port.c_str(), "--bind",
             "127.0.0.1", "--save", "", "--appendonly", "no", nullptr);
      _exit(127);
    }
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        error_ = WIFEXITED(status) && WEXITSTATUS(status) == 127
                     ? "redis-server is not installed (scripts/install-deps.sh "
                       "installs it)"
                     : "redis-server exited at startup";
        return;
      }
      if (RedisStore::connect({"127.0.0.1", port_}, "", absl::Seconds(1)).ok())
        return;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    error_ = fmt::format("redis-server on port {} did not answer PING within "
                         "20s",
                         port_);
  }
  ~RedisServer() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  RedisServer(const RedisServer &) = delete;
  RedisServer &operator=(const RedisServer &) = delete;

  /// "" when the server answers.
  const std::string &error() const { return error_; }
  std::string url() const { return fmt::format("redis://127.0.0.1:{}", port_); }
  int port() const { return port_; }

private:
  int port_ = -1;
  pid_t pid_ = -1;
  std::string error_;
};

} // namespace torus::rt::testing

#endif // TORUS_RUNTIME_MULTIWORKER_REDISSERVER_H
