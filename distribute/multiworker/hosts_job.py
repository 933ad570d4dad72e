"""A multi-worker job whose workers are separate hosts, for the tests.

    with HostsJob(worker_binary, "torus-hosts-") as job:
        procs = job.start("w", ["--steps=20"])   # one process per task
        job.cut_link(3)                           # task 3's veth down

Each of N workers runs in its own network namespace, joined to the others
only by a veth pair into a bridge made here; the addresses exist only inside
those namespaces (no two workers share a loopback). They meet through a
private redis-server listening on the bridge ($TORUS_RENDEZVOUS). The
cluster is a chief and N - 1 workers (TF_CONFIG per task). Where namespaces
cannot be made (no privilege), the job says so and runs on loopback
(`isolated` is False). Everything made is named after this process and
removed on exit: the namespaces, links, the server and the temporary
directory.
"""

import array
import ipaddress
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time

N = 4


def sh(*args, check=True):
    return subprocess.run(list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, check=check)


def free_subnet():
    """A 10.x.y.0/24 no interface of this host is on: two tests running at
    once each take their own."""
    used = set()
    out = sh("ip", "-o", "-4", "addr", "show", check=False).stdout.decode()
    for word in out.split():
        if "/" in word:
            try:
                used.add(ipaddress.ip_interface(word).network)
            except ValueError:
                pass
    pid = os.getpid()
    for k in range(250 * 50):
        x, y = 200 + (pid + k) % 50, ((pid + k) // 50) % 250
        net = ipaddress.ip_network("10.%d.%d.0/24" % (x, y))
        if not any(net.overlaps(u) for u in used):
            return "10.%d.%d" % (x, y)
    raise SystemExit("FAIL: no free 10.x.y.0/24 subnet for the bridge")


class Network:
    """A bridge and one namespace per worker."""

    def __init__(self):
        pid = os.getpid()
        self.bridge = "tb%d" % (pid % 10**9)
        self.names = ["torus-%d-%d" % (pid, i) for i in range(N)]
        subnet = free_subnet()
        self.gateway = subnet + ".1"
        self.addresses = ["%s.%d" % (subnet, i + 2) for i in range(N)]
        self.made = []

    def veth(self, i):
        return "%s-%d" % (self.bridge[:10], i)

    def make(self):
        sh("ip", "link", "add", self.bridge, "type", "bridge")
        self.made.append(("link", self.bridge))
        sh("ip", "addr", "add", self.gateway + "/24", "dev", self.bridge)
        sh("ip", "link", "set", self.bridge, "up")
        for i, ns in enumerate(self.names):
            sh("ip", "netns", "add", ns)
            self.made.append(("netns", ns))
            sh("ip", "link", "add", self.veth(i), "type", "veth", "peer",
               "name", "eth0", "netns", ns)
            self.made.append(("link", self.veth(i)))
            sh("ip", "link", "set", self.veth(i), "master", self.bridge, "up")
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
        self.made = []


def free_port(host):
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def start_redis(host):
    """A redis-server on `host` at a free port, once it answers PING."""
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
    """A weights file's f32 values."""
    a = array.array("f")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    return a


class HostsJob:
    """N workers of `worker` as separate hosts meeting through Redis."""

    def __init__(self, worker, prefix):
        self.worker = worker
        self.prefix = prefix
        self.server = None
        self.net = None
        self.tmp = None

    def __enter__(self):
        self.tmp = tempfile.mkdtemp(prefix=self.prefix)
        self.net = Network()
        self.isolated = True
        try:
            self.net.make()
        except (subprocess.CalledProcessError, FileNotFoundError) as e:
            out = getattr(e, "stdout", b"") or b""
            print("network namespaces cannot be made here (%s): running the "
                  "workers on loopback instead"
                  % (out.decode(errors="replace").strip() or e))
            self.net.remove()
            self.isolated = False
        host = self.net.gateway if self.isolated else "127.0.0.1"
        self.addresses = self.net.addresses if self.isolated \
            else ["127.0.0.1"] * N
        self.server, port = start_redis(host)
        self.url = "redis://%s:%d" % (host, port)
        self.cluster = {"chief": ["%s:2222" % self.addresses[0]],
                        "worker": ["%s:2222" % a for a in self.addresses[1:]]}
        return self

    def __exit__(self, *exc):
        if self.server:
            self.server.kill()
            self.server.wait()
        if self.net:
            self.net.remove()
        shutil.rmtree(self.tmp, ignore_errors=True)
        return False

    def where(self):
        """How the workers are placed, for the PASS line."""
        return ("in separate network namespaces" if self.isolated
                else "on loopback")

    def start(self, job, args, tpu_hosts=False):
        """Starts task i of job `job` (its own Redis prefix) with `args`,
        writing `--out=<tmp>/<job>-<i>.bin`; stdout and stderr are piped
        together. With `tpu_hosts` task i is host i of a TPU slice
        ($TPU_WORKER_ID, and $TPU_NAME the hosts' grpc:// endpoints)
        instead of a TF_CONFIG task."""
        procs = []
        endpoints = ",".join("grpc://%s:8470" % a for a in self.addresses)
        for i in range(N):
            task = {"type": "chief", "index": 0} if i == 0 else \
                   {"type": "worker", "index": i - 1}
            env = dict(os.environ, TF_CONFIG=json.dumps(
                {"cluster": self.cluster, "task": task}),
                TORUS_RENDEZVOUS=self.url,
                TORUS_JOB_ID="%s-%d" % (job, os.getpid()))
            if tpu_hosts:
                env.update(TF_CONFIG="", TPU_WORKER_ID=str(i),
                           TPU_NAME=endpoints)
            env.pop("TORUS_RENDEZVOUS_DIR", None)
            argv = [self.worker] + list(args) + [
                "--out=%s" % self.out(job, i)]
            if self.isolated:
                argv = ["ip", "netns", "exec", self.net.names[i]] + argv
            procs.append(subprocess.Popen(argv, env=env,
                                          stdout=subprocess.PIPE,
                                          stderr=subprocess.STDOUT))
        return procs

    def out(self, job, i):
        return "%s/%s-%d.bin" % (self.tmp, job, i)

    def alone(self, name, args):
        """The worker as one process (no TF_CONFIG) writing
        <tmp>/<name>.bin: its weights, or None after printing why not."""
        path = "%s/%s.bin" % (self.tmp, name)
        env = dict(os.environ, TF_CONFIG="")
        for name in ("TPU_WORKER_ID", "TPU_NAME"):
            env.pop(name, None)
        r = subprocess.run([self.worker] + list(args) + ["--out=" + path],
                           env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=150)
        if r.returncode != 0:
            print("%s:\n%s" % (name, r.stdout.decode(errors="replace")))
            return None
        return weights(path)

    def cut_link(self, i):
        """Takes task i's veth down (namespaces only)."""
        sh("ip", "link", "set", self.net.veth(i), "down")

    def run_and_cut_link(self, job, args, victim=3, tpu_hosts=False):
        """Starts `job` with `args` (and `tpu_hosts`, as start), cuts task
        `victim`'s link once it has printed step 3, and waits for every task
        (90 s each): [(exit code, seconds since the cut, output)], the
        victim's output with what it printed before the cut."""
        procs = self.start(job, args, tpu_hosts)
        seen = read_until(procs[victim], b"step 3 ", 120)
        self.cut_link(victim)
        cut_at = time.monotonic()
        results = []
        for i, p in enumerate(procs):
            out, _ = communicate(p, 90)
            results.append((p.returncode, time.monotonic() - cut_at,
                            (seen if i == victim else b"") + out))
        return results


def finish(procs, what):
    """Waits for every task (150 s each): whether all exited 0, printing
    why not, and their outputs."""
    ok = True
    outs = []
    for i, p in enumerate(procs):
        out, hung = communicate(p, 150)
        if hung:
            print("%s: task %d hung" % (what, i))
            ok = False
        if p.returncode != 0:
            print("%s: task %d (exit %s):\n%s" % (
                what, i, p.returncode, out.decode(errors="replace")))
            ok = False
        outs.append(out)
    return ok, outs


def equal_to_reference(job, name, want, who):
    """Whether every task's weights of job `name` equal `want` within 1e-5
    relative and each other bit for bit; prints why not. `who` names a
    task ("worker", "host")."""
    first = weights(job.out(name, 0))
    scale = max(abs(x) for x in want) if want else 0
    for i in range(N):
        got = weights(job.out(name, i))
        if len(got) != len(want) or not want:
            print("%s %d: %d weights, the reference %d" %
                  (who, i, len(got), len(want)))
            return False
        err = max(abs(a - b) for a, b in zip(got, want)) / scale
        if err > 1e-5:
            print("%s %d: relative error %g against one process" %
                  (who, i, err))
            return False
        if got != first:
            print("%s %d's weights differ from %s 0's" % (who, i, who))
            return False
    return True


def kill_is_named(procs, victim, named):
    """Kills task `victim` once it printed step 3; whether every other task
    then exits non-zero within 40 s with `named` in its output (prints why
    not)."""
    read_until(procs[victim], b"step 3 ", 60)
    procs[victim].kill()
    killed_at = time.monotonic()
    for i, p in enumerate(procs):
        if i == victim:
            p.wait()
            continue
        out, _ = communicate(p, 60)
        took = time.monotonic() - killed_at
        if p.returncode == 0 or named not in out or took > 40:
            print("kill: task %d (exit %s after %.0fs) did not say '%s':\n%s"
                  % (i, p.returncode, took, named.decode(),
                     out.decode(errors="replace")[-2000:]))
            return False
    return True


def cut_is_named(cut, named, victim=3):
    """Whether every task of run_and_cut_link's `cut` failed within 40 s of
    the cut, each but the victim saying `named` (prints why not)."""
    for i, (code, took, text) in enumerate(cut):
        # The others time out (not hang) -- or see the connection of one
        # that gave up first closed -- probe every peer and name the one
        # that gives no TCP answer, with its address.
        if code == 0 or took > 40 or (i != victim and named not in text):
            print("cut: task %d (exit %s after %.0fs) did not fail within "
                  "the timeout saying '%s':\n%s" % (
                      i, code, took, named.decode(),
                      text.decode(errors="replace")[-2000:]))
            return False
    return True


def read_until(proc, marker, seconds):
    """proc's output until a line holds `marker` (or it ends, or `seconds`
    pass): what was read."""
    seen = b""
    deadline = time.monotonic() + seconds
    while marker not in seen and time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen += line
    return seen


def communicate(proc, seconds):
    """proc's output once it exits, killing it after `seconds`: (output,
    whether it had to be killed)."""
    try:
        out, _ = proc.communicate(timeout=seconds)
        return out, False
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        return out, True
