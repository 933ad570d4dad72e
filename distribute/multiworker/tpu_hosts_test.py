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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hosts_job import (N, HostsJob, cut_is_named,  # noqa: E402
                       equal_to_reference, finish, kill_is_named)

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
    ok, outs = finish(start_job("t", STEPS), "training")
    want = job.alone("reference", ["--tpu=" + SLICE, "--steps=%d" % STEPS])
    if not ok or want is None:
        return 1
    for i, out in enumerate(outs):
        if b"host %d of %d: %d replicas in sync" % (i, N, REPLICAS) not in out:
            print("host %d did not say how many replicas are in sync:\n%s"
                  % (i, out.decode(errors="replace")))
            return 1
    if not equal_to_reference(job, "t", want, "host"):
        return 1
    # 2. A killed host is named by the others within the timeout.
    if not kill_is_named(start_job("k", 100000, ["--timeout=10"]), 2,
                         b"host 2 is down"):
        return 1
    # 3. A cut link (host 3's veth down) fails every host within the
    # timeout; the others name host 3 with its address.
    if job.isolated:
        cut = job.run_and_cut_link("c", ["--tpu=" + SLICE, "--steps=100000",
                                         "--timeout=10"], tpu_hosts=True)
        if not cut_is_named(
                cut, ("host 3 (%s) is unreachable" % job.addresses[3]).encode()):
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
