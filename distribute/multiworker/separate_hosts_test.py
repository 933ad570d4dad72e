#!/usr/bin/env python3
"""Workers as separate hosts: each of 4 torus-mlp-worker processes (2
emulated devices each) runs in its own network namespace, joined to the
others only by a veth pair into a bridge the test makes; the addresses exist
only inside those namespaces (no two workers share a loopback). They meet
through a private redis-server listening on the bridge, train 20 steps data
parallel, and every worker's weights must equal a single process with 8
devices (1e-5 relative) and each other's bit for bit.

    separate_hosts_test.py WORKER

Where namespaces cannot be made (no privilege), the test says so and runs the
same job on loopback. Everything it creates is named after its pid and
removed at the end.
"""

import array
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

N = 4
DEVICES = 2
STEPS = 20


def sh(*args, check=True):
    return subprocess.run(list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, check=check)


class Network:
    """A bridge and one namespace per worker, or None on loopback."""

    def __init__(self):
        pid = os.getpid()
        self.bridge = "tb%d" % (pid % 10**9)
        self.names = ["torus-%d-%d" % (pid, i) for i in range(N)]
        subnet = "10.%d.%d" % (200 + pid % 50, (pid // 50) % 250)
        self.gateway = subnet + ".1"
        self.addresses = ["%s.%d" % (subnet, i + 2) for i in range(N)]
        self.made = []

    def make(self):
        sh("ip", "link", "add", self.bridge, "type", "bridge")
        self.made.append(("link", self.bridge))
        sh("ip", "addr", "add", self.gateway + "/24", "dev", self.bridge)
        sh("ip", "link", "set", self.bridge, "up")
        for i, ns in enumerate(self.names):
            sh("ip", "netns", "add", ns)
            self.made.append(("netns", ns))
            veth = "%s-%d" % (self.bridge[:10], i)
            sh("ip", "link", "add", veth, "type", "veth", "peer", "name",
               "eth0", "netns", ns)
            self.made.append(("link", veth))
            sh("ip", "link", "set", veth, "master", self.bridge, "up")
            sh("ip", "-n", ns, "addr", "add", self.addresses[i] + "/24",
               "dev", "eth0")
            sh("ip", "-n", ns, "link", "set", "eth0", "up")
            sh("ip", "-n", ns, "link", "set", "lo", "up")

    def remove(self):
        for kind, name in reversed(self.made):
            if kind == "netns":
                sh("ip", "netns", "del", name, check=False)
            else:
                sh("ip", "link", "del", name, check=False)


def free_port(host):
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def start_redis(host):
    port = free_port(host)
    try:
        server = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", host,
             "--protected-mode", "no", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except FileNotFoundError:
        raise SystemExit("FAIL: redis-server is not installed "
                         "(scripts/install-deps.sh installs it)")
    deadline = time.monotonic() + 20
    while True:
        try:
            with socket.create_connection((host, port), 1) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return server, port
        except OSError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            server.kill()
            raise SystemExit("FAIL: redis-server on %s:%d did not answer PING"
                             % (host, port))
        time.sleep(0.05)


def weights(path):
    a = array.array("f")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    return a


def main():
    worker = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="torus-hosts-")
    net = Network()
    isolated = True
    try:
        net.make()
    except (subprocess.CalledProcessError, FileNotFoundError) as e:
        out = getattr(e, "stdout", b"") or b""
        print("network namespaces cannot be made here (%s): running the "
              "workers on loopback instead" % out.decode(errors="replace").strip()
              or e)
        net.remove()
        isolated = False
    server = None
    try:
        host = net.gateway if isolated else "127.0.0.1"
        addresses = net.addresses if isolated else ["127.0.0.1"] * N
        server, port = start_redis(host)
        url = "redis://%s:%d" % (host, port)
        cluster = {"chief": ["%s:2222" % addresses[0]],
                   "worker": ["%s:2222" % a for a in addresses[1:]]}

        def start_job(job, steps, extra=()):
            procs = []
            for i in range(N):
                task = {"type": "chief", "index": 0} if i == 0 else \
                       {"type": "worker", "index": i - 1}
                env = dict(os.environ, TF_CONFIG=json.dumps(
                    {"cluster": cluster, "task": task}), TORUS_RENDEZVOUS=url,
                    TORUS_JOB_ID="%s-%d" % (job, os.getpid()))
                env.pop("TORUS_RENDEZVOUS_DIR", None)
                argv = [worker, "--devices=%d" % DEVICES, "--steps=%d" % steps,
                        "--out=%s/%s-%d.bin" % (tmp, job, i)] + list(extra)
                if isolated:
                    argv = ["ip", "netns", "exec", net.names[i]] + argv
                procs.append(subprocess.Popen(argv, env=env,
                                              stdout=subprocess.PIPE,
                                              stderr=subprocess.STDOUT))
            return procs

        # 1. Training equals one process.
        procs = start_job("w", STEPS)
        ref = subprocess.run(
            [worker, "--devices=%d" % (N * DEVICES), "--steps=%d" % STEPS,
             "--out=%s/ref.bin" % tmp], env=dict(os.environ, TF_CONFIG=""),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=150)
        failed = False
        for i, p in enumerate(procs):
            try:
                out, _ = p.communicate(timeout=150)
            except subprocess.TimeoutExpired:
                p.kill()
                out, _ = p.communicate()
                print("worker %d hung" % i)
                failed = True
            if p.returncode != 0 or \
                    b"%d replicas in sync" % (N * DEVICES) not in out:
                print("worker %d (exit %s):\n%s" %
                      (i, p.returncode, out.decode(errors="replace")))
                failed = True
        if ref.returncode != 0:
            print("reference:\n" + ref.stdout.decode(errors="replace"))
            failed = True
        if failed:
            return 1
        want = weights("%s/ref.bin" % tmp)
        first = weights("%s/w-0.bin" % tmp)
        scale = max(abs(x) for x in want)
        for i in range(N):
            got = weights("%s/w-%d.bin" % (tmp, i))
            if len(got) != len(want) or len(want) == 0:
                print("worker %d: %d weights, the reference %d" %
                      (i, len(got), len(want)))
                return 1
            err = max(abs(a - b) for a, b in zip(got, want)) / scale
            if err > 1e-5:
                print("worker %d: relative error %g against one process" %
                      (i, err))
                return 1
            if got != first:
                print("worker %d's weights differ from the chief's" % i)
                return 1
        # 2. A killed worker (task 2, "worker 1") is named by the others
        # within the collective timeout (10 s).
        procs = start_job("k", 100000, ["--timeout=10"])
        victim = procs[2]
        seen = b""
        deadline = time.monotonic() + 60
        while b"step 3 " not in seen and time.monotonic() < deadline:
            line = victim.stdout.readline()
            if not line:
                break
            seen += line
        victim.kill()
        killed_at = time.monotonic()
        for i, p in enumerate(procs):
            if i == 2:
                p.wait()
                continue
            try:
                out, _ = p.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                p.kill()
                out, _ = p.communicate()
            took = time.monotonic() - killed_at
            if p.returncode == 0 or b"worker 1 is down" not in out or took > 40:
                print("kill: task %d (exit %s after %.0fs) did not name worker "
                      "1:\n%s" % (i, p.returncode, took,
                                  out.decode(errors="replace")[-2000:]))
                return 1
        # 3. A cut link (task 3's veth down): every worker fails within the
        # timeout instead of hanging, and the others name task 3.
        if isolated:
            procs = start_job("c", 100000, ["--timeout=10"])
            seen = b""
            while b"step 3 " not in seen:
                line = procs[3].stdout.readline()
                if not line:
                    break
                seen += line
            sh("ip", "link", "set", "%s-%d" % (net.bridge[:10], 3), "down")
            cut_at = time.monotonic()
            for i, p in enumerate(procs):
                try:
                    out, _ = p.communicate(timeout=90)
                except subprocess.TimeoutExpired:
                    p.kill()
                    out, _ = p.communicate()
                took = time.monotonic() - cut_at
                text = (seen if i == 3 else b"") + out
                # The others time out (not hang) -- or see the connection of
                # one that gave up first closed -- probe every peer and name
                # the one that gives no TCP answer, with its address.
                named = ("worker 2 (%s) is unreachable" % addresses[3]).encode()
                if p.returncode == 0 or took > 40 or (
                        i != 3 and named not in text):
                    print("cut: task %d (exit %s after %.0fs) did not fail "
                          "within the timeout:\n%s" % (
                              i, p.returncode, took,
                              text.decode(errors="replace")[-2000:]))
                    return 1
        print("PASS: %d workers %s through %s equal one process of %d devices;"
              " a killed worker is named by the others%s"
              % (N, "in separate network namespaces" if isolated
                 else "on loopback", url, N * DEVICES,
                 "; a cut link fails every worker within the timeout, named by "
                 "the others"
                 if isolated else ""))
        return 0
    finally:
        if server:
            server.kill()
            server.wait()
        if isolated:
            net.remove()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
