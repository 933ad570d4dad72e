#!/usr/bin/env python3
"""torus-launch with a Redis rendezvous: starts a private redis-server on a
free loopback port, launches 2 workers meeting through it (they must train),
then a job pointed at a port where nothing listens (it must fail naming the
address, well within the launcher's limits), and stops the server.

    torus_launch_redis_test.py LAUNCHER WORKER

Fails (never skips) when redis-server is missing: scripts/install-deps.sh
installs it.
"""

import socket
import subprocess
import sys
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=150)
    return p.returncode, p.stdout.decode(errors="replace")


def main():
    launcher, worker = sys.argv[1], sys.argv[2]
    port = free_port()
    try:
        server = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except FileNotFoundError:
        print("FAIL: redis-server is not installed (scripts/install-deps.sh "
              "installs it)")
        return 1
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), 1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                print("FAIL: redis-server on port %d did not answer PING" % port)
                return 1
            time.sleep(0.05)

        url = "redis://127.0.0.1:%d" % port
        code, out = run([sys.executable, launcher, "-n", "2", "--grace", "60",
                         "--rendezvous", url, "--", worker, "--devices=2",
                         "--steps=2"])
        if code != 0 or "[worker 0] step 2 loss" not in out or url not in out:
            print("FAIL: training through %s (exit %d):\n%s" % (url, code, out))
            return 1

        dead = "redis://127.0.0.1:%d" % free_port()
        code, out = run([sys.executable, launcher, "-n", "2", "--grace", "60",
                         "--rendezvous", dead, "--", worker, "--devices=1",
                         "--steps=1"])
        if code == 0 or "cannot reach the rendezvous server " + dead not in out:
            print("FAIL: an unreachable server (exit %d):\n%s" % (code, out))
            return 1
        print("PASS")
        return 0
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
