#!/usr/bin/env python3
"""TPUStrategy over a multi-host slice, one process per host, the hosts as
separate machines: 4 torus-mlp-worker --tpu=v4-32 processes, host i with
$TPU_WORKER_ID=i and $TPU_NAME the 4 hosts' grpc:// endpoints, each in its own
network namespace (hosts_job.py's bridge and veth pairs; addresses only
inside the namespaces), meet through a private redis-server on the bridge
and train the MLP 20 steps over the slice's 16 replicas. Every host's weights
must equal one process driving the whole slice (1e-5 relative) and each
other's bit for bit; a killed host is named by the others; a cut link fails
every host within the timeout, the others naming the cut-off one.

    tpu_hosts_test.py WORKER

Where namespaces cannot be made (no privilege), the test says so and runs the
hosts on loopback.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hosts_job import (N, HostsJob, communicate, read_until,  # noqa: E402
                       weights)

SLICE = "v4-32"  # 4 hosts of 4 chips
REPLICAS = 16
STEPS = 20


def main():
    with HostsJob(sys.argv[1], "torus-tpu-hosts-") as job:
        return run(job)


def run(job):
    def start_job(name, steps, extra=()):
        return job.start(name, ["--tpu=" + SLICE, "--steps=%d" % steps] +
                         list(extra), tpu_hosts=True)

    # 1. The hosts train to the weights of one process driving the slice.
    procs = start_job("t", STEPS)
    want = job.alone("reference", ["--tpu=" + SLICE, "--steps=%d" % STEPS])
    failed = want is None
    for i, p in enumerate(procs):
        out, hung = communicate(p, 150)
        if hung:
            print("host %d hung" % i)
            failed = True
        banner = b"host %d of %d: %d replicas in sync" % (i, N, REPLICAS)
        if p.returncode != 0 or banner not in out:
            print("host %d (exit %s):\n%s" %
                  (i, p.returncode, out.decode(errors="replace")))
            failed = True
    if failed:
        return 1
    first = weights(job.out("t", 0))
    scale = max(abs(x) for x in want)
    for i in range(N):
        got = weights(job.out("t", i))
        if len(got) != len(want) or not want:
            print("host %d: %d weights, the reference %d" %
                  (i, len(got), len(want)))
            return 1
        err = max(abs(a - b) for a, b in zip(got, want)) / scale
        if err > 1e-5:
            print("host %d: relative error %g against one process" % (i, err))
            return 1
        if got != first:
            print("host %d's weights differ from host 0's" % i)
            return 1
    # 2. A killed host is named by the others within the timeout.
    procs = start_job("k", 100000, ["--timeout=10"])
    victim = procs[2]
    read_until(victim, b"step 3 ", 60)
    victim.kill()
    killed_at = time.monotonic()
    for i, p in enumerate(procs):
        if i == 2:
            p.wait()
            continue
        out, _ = communicate(p, 60)
        took = time.monotonic() - killed_at
        if p.returncode == 0 or b"host 2 is down" not in out or took > 40:
            print("kill: host %d (exit %s after %.0fs) did not name host 2:"
                  "\n%s" % (i, p.returncode, took,
                            out.decode(errors="replace")[-2000:]))
            return 1
    # 3. A cut link (host 3's veth down) fails every host within the
    # timeout; the others name host 3 with its address.
    if job.isolated:
        named = ("host 3 (%s) is unreachable" % job.addresses[3]).encode()
        cut = job.run_and_cut_link("c", ["--tpu=" + SLICE, "--steps=100000",
                                         "--timeout=10"], tpu_hosts=True)
        for i, (code, took, text) in enumerate(cut):
            if code == 0 or took > 40 or (i != 3 and named not in text):
                print("cut: host %d (exit %s after %.0fs) did not fail "
                      "within the timeout naming host 3:\n%s" % (
                          i, code, took,
                          text.decode(errors="replace")[-2000:]))
                return 1
    print("PASS: TPUStrategy over %s, one process per host %s through %s, "
          "equals one process driving the slice; a killed host is named by "
          "the others%s" % (SLICE, job.where(), job.url,
                            "; a cut link fails every host within the "
                            "timeout, named by the others"
                            if job.isolated else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
