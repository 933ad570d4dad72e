#!/usr/bin/env python3
"""The 2 x 2 data x model-parallel MLP over 4 workers as separate hosts.

    model_parallel_hosts_test.py MP_WORKER

Each of 4 torus-mp-worker processes runs one of the 4 logical devices of one
program (2 replicas x 2 partitions: the hidden dimension split over the
partitions of a replica), each in its own network namespace joined to the
others by a veth pair into a bridge (hosts_job.py), so
both the Megatron all-reduce of a replica and the gradient all-reduce of a
partition cross processes. They meet through a private redis-server on the
bridge. Checked:

1. After 20 steps every worker's weights equal the single process running
   all 4 devices bit for bit (both reduce their groups of 2 in the same
   order), and the single-core step on the global batch within 1e-5
   relative (the partitioned program sums the hidden dimension in 2 halves
   and the batch in 2 halves).
2. Restart: workers saving every 5 steps are all killed (SIGKILL) after the
   chief's step 12; a restart with a new job id restores the latest step
   every worker saved and ends with the weights of the uninterrupted run,
   bit for bit.
3. A cut link (worker 2's veth down, task 3): every other worker fails
   within the 10 s timeout + margin naming it and its address ("worker 2
   (10.x.y.5) is unreachable"); the cut-off worker says its own link may be
   down.

Before that, bad arguments and a cluster of 3 workers are errors naming them
(exit 1). Where namespaces cannot be made (no privilege), the test says so
and runs 1 and 2 on loopback (3 needs namespaces).
"""

import json
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hosts_job import (N, HostsJob, finish, read_until,  # noqa: E402
                       weights)

STEPS = 20


def main():
    with HostsJob(sys.argv[1], "torus-mp-hosts-") as job:
        return run(job)


def run(job):
    worker, addresses = job.worker, job.addresses

    def start_job(name, steps, extra=()):
        return job.start(name, ["--steps=%d" % steps] + list(extra))

    def alone(name, extra=()):
        return job.alone(name, ["--steps=%d" % STEPS] + list(extra))

    # 0. Bad input is an error naming it (exit 1), before any training.
    three = json.dumps({"cluster": {"worker": ["127.0.0.1:1"] * 3},
                        "task": {"type": "worker", "index": 0}})
    for argv, env, want in (
            ([worker, "--bogus"], {}, b"unknown argument '--bogus'"),
            ([worker, "--steps=0"], {},
             b"--steps needs a positive number, got '0'"),
            ([worker], {"TF_CONFIG": three},
             b"go to 1, 2 or 4 workers; TF_CONFIG has 3")):
        r = subprocess.run(argv, env=dict(os.environ, **env),
                           stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=60)
        if r.returncode != 1 or want not in r.stdout:
            print("%s: exit %d, wanted 1 and '%s':\n%s" % (
                " ".join(argv), r.returncode, want.decode(),
                r.stdout.decode(errors="replace")))
            return 1

    # 1. Training equals one process and one core.
    ok, outs = finish(start_job("w", STEPS), "training")
    one = alone("one-process")
    single = alone("single-core", ["--single-core"])
    if not ok or one is None or single is None:
        return 1
    for i, out in enumerate(outs):
        if b"devices %d..%d of 2 replicas x 2 partitions" % (i, i) \
                not in out:
            print("task %d did not run device %d alone:\n%s" %
                  (i, i, out.decode(errors="replace")))
            return 1
    scale = max(abs(x) for x in single)
    for i in range(N):
        got = weights(job.out("w", i))
        if len(got) != len(one) or len(one) != 16 * 32 + 32 * 4:
            print("task %d: %d weights, one process %d" %
                  (i, len(got), len(one)))
            return 1
        if got != one:
            bad = sum(a != b for a, b in zip(got, one))
            print("task %d: %d weights differ from the single process "
                  "with 4 devices" % (i, bad))
            return 1
        err = max(abs(a - b) for a, b in zip(got, single)) / scale
        if err > 1e-5:
            print("task %d: relative error %g against one core" % (i, err))
            return 1

    # 2. Every worker killed after a checkpoint; the restart resumes.
    ckpt = os.path.join(job.tmp, "ckpt")
    save = ["--checkpoint-dir=%s" % ckpt, "--checkpoint-every=5"]
    procs = start_job("k", STEPS, save + ["--timeout=10"])
    seen = read_until(procs[0], b"step 12 ", 120)
    for p in procs:
        p.send_signal(signal.SIGKILL)
    for p in procs:
        p.communicate()
    if b"step 12 " not in seen:
        print("kill: the chief never reached step 12:\n" +
              seen.decode(errors="replace"))
        return 1
    ok, outs = finish(start_job("r", STEPS, save), "restart")
    if not ok:
        return 1
    for i, out in enumerate(outs):
        if b"restored step 10" not in out and b"restored step 15" \
                not in out:
            print("restart: task %d did not restore step 10 or 15:\n%s"
                  % (i, out.decode(errors="replace")))
            return 1
        if weights(job.out("r", i)) != one:
            print("restart: task %d's weights differ from the "
                  "uninterrupted run" % i)
            return 1

    # 3. A cut link is named by the others.
    if job.isolated:
        named = ("worker 2 (%s) is unreachable" % addresses[3]).encode()
        cut = job.run_and_cut_link("c", ["--steps=100000", "--timeout=10"])
        for i, (code, took, text) in enumerate(cut):
            want = b"own network link may be down" if i == 3 else named
            if code == 0 or took > 40 or want not in text:
                print("cut: task %d (exit %s after %.0fs) did not say "
                      "'%s':\n%s" % (i, code, took, want.decode(),
                                     text.decode(errors="replace")[-2000:]))
                return 1
            for line in text.splitlines():
                if line.startswith(b"error:"):
                    print("cut: task %d after %.0fs: %s" % (
                        i, took, line.decode(errors="replace")))
    print("PASS: the 2 x 2 data x model-parallel MLP on %d workers %s "
          "through %s equals one process bit for bit (and one core within "
          "1e-5); killed after a checkpoint, the restart resumes to the "
          "same weights%s"
          % (N, job.where(), job.url,
             "; a cut link is named by the others" if job.isolated else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
