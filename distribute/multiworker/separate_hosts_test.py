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

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hosts_job import (N, HostsJob, communicate, read_until,  # noqa: E402
                       weights)

DEVICES = 2
STEPS = 20


def main():
    with HostsJob(sys.argv[1], "torus-hosts-") as job:
        return run(job)


def run(job):
    addresses = job.addresses

    def start_job(name, steps, extra=()):
        return job.start(name, ["--devices=%d" % DEVICES,
                                "--steps=%d" % steps] + list(extra))

    # 1. Training equals one process.
    procs = start_job("w", STEPS)
    want = job.alone("reference", ["--devices=%d" % (N * DEVICES),
                                   "--steps=%d" % STEPS])
    failed = want is None
    for i, p in enumerate(procs):
        out, hung = communicate(p, 150)
        if hung:
            print("worker %d hung" % i)
            failed = True
        if p.returncode != 0 or \
                b"%d replicas in sync" % (N * DEVICES) not in out:
            print("worker %d (exit %s):\n%s" %
                  (i, p.returncode, out.decode(errors="replace")))
            failed = True
    if failed:
        return 1
    first = weights(job.out("w", 0))
    scale = max(abs(x) for x in want)
    for i in range(N):
        got = weights(job.out("w", i))
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
    read_until(victim, b"step 3 ", 60)
    victim.kill()
    killed_at = time.monotonic()
    for i, p in enumerate(procs):
        if i == 2:
            p.wait()
            continue
        out, _ = communicate(p, 60)
        took = time.monotonic() - killed_at
        if p.returncode == 0 or b"worker 1 is down" not in out or took > 40:
            print("kill: task %d (exit %s after %.0fs) did not name worker "
                  "1:\n%s" % (i, p.returncode, took,
                              out.decode(errors="replace")[-2000:]))
            return 1
    # 3. A cut link (task 3's veth down): every worker fails within the
    # timeout instead of hanging, and the others name task 3.
    if job.isolated:
        named = ("worker 2 (%s) is unreachable" % addresses[3]).encode()
        cut = job.run_and_cut_link("c", ["--devices=%d" % DEVICES,
                                         "--steps=100000", "--timeout=10"])
        for i, (code, took, text) in enumerate(cut):
            # The others time out (not hang) -- or see the connection of
            # one that gave up first closed -- probe every peer and name
            # the one that gives no TCP answer, with its address.
            if code == 0 or took > 40 or (i != 3 and named not in text):
                print("cut: task %d (exit %s after %.0fs) did not fail "
                      "within the timeout:\n%s" % (
                          i, code, took,
                          text.decode(errors="replace")[-2000:]))
                return 1
    print("PASS: %d workers %s through %s equal one process of %d devices;"
          " a killed worker is named by the others%s"
          % (N, job.where(), job.url, N * DEVICES,
             "; a cut link fails every worker within the timeout, named by "
             "the others"
             if job.isolated else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
