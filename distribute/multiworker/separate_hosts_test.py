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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hosts_job import (N, HostsJob, cut_is_named,  # noqa: E402
                       equal_to_reference, finish, kill_is_named)

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
    ok, outs = finish(start_job("w", STEPS), "training")
    want = job.alone("reference", ["--devices=%d" % (N * DEVICES),
                                   "--steps=%d" % STEPS])
    if not ok or want is None:
        return 1
    for i, out in enumerate(outs):
        if b"%d replicas in sync" % (N * DEVICES) not in out:
            print("worker %d did not say how many replicas are in sync:\n%s"
                  % (i, out.decode(errors="replace")))
            return 1
    if not equal_to_reference(job, "w", want, "worker"):
        return 1
    # 2. A killed worker (task 2, "worker 1") is named by the others
    # within the collective timeout (10 s).
    if not kill_is_named(start_job("k", 100000, ["--timeout=10"]), 2,
                         b"worker 1 is down"):
        return 1
    # 3. A cut link (task 3's veth down): every worker fails within the
    # timeout instead of hanging, and the others name task 3.
    if job.isolated:
        cut = job.run_and_cut_link("c", ["--devices=%d" % DEVICES,
                                         "--steps=100000", "--timeout=10"])
        if not cut_is_named(
                cut, ("worker 2 (%s) is unreachable" % addresses[3]).encode()):
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
