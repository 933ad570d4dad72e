#!/usr/bin/env python3
"""Checks a Chrome/Perfetto trace (Trace Event Format, JSON object form) as
written by `torusc --trace` and `torus-run --trace`, and prints a summary.

  validate_trace.py TRACE.json [--tracks-with REGEX ...]

The rules checked (the format's, and what the viewers need to draw tracks):
  - the file is a JSON object with a "traceEvents" array; "displayTimeUnit",
    when present, is "ms" or "ns";
  - every event has "name" (string), "ph" (string), "ts" (number >= 0),
    "pid" and "tid" (integers);
  - "X" (complete) events have "dur", a number >= 0; "args", when present,
    is an object; only "X" and "M" phases are used;
  - "M" (metadata) events are process_name / thread_name (with a string
    args.name) or process_sort_index / thread_sort_index (integer
    args.sort_index);
  - every pid used by a span has a process_name, every (pid, tid) a
    thread_name;
  - the spans of one track nest properly: any two either nest or are
    disjoint (compared in whole nanoseconds).

Exit status 0 when valid (the summary on stdout), 1 with one line per
problem on stderr otherwise, 2 for a bad command line or unreadable file.

The summary: the processes and their tracks, the spans' total time by name
(the top ones), and for every --tracks-with REGEX, how many tracks of each
process have a span whose name matches it.
"""
import argparse
import collections
import json
import re
import sys

METADATA = {"process_name", "thread_name", "process_sort_index",
            "thread_sort_index"}


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def ns(micros):
    return round(micros * 1000)


def validate(trace):
    """Returns (problems, spans, process names, thread names)."""
    problems = []
    if not isinstance(trace, dict):
        return ["the trace is not a JSON object"], [], {}, {}
    events = trace.get("traceEvents")
    if not isinstance(events, list):
        return ['no "traceEvents" array'], [], {}, {}
    unit = trace.get("displayTimeUnit")
    if unit is not None and unit not in ("ms", "ns"):
        problems.append(f'displayTimeUnit is {unit!r}, not "ms" or "ns"')
    spans, processes, threads = [], {}, {}
    for i, e in enumerate(events):
        where = f"event {i}"
        if not isinstance(e, dict):
            problems.append(f"{where}: not an object")
            continue
        if isinstance(e.get("name"), str):
            where += f" ({e['name']!r})"
        bad = False
        for key, check, what in (("name", lambda v: isinstance(v, str), "a string"),
                                 ("ph", lambda v: isinstance(v, str), "a string"),
                                 ("ts", lambda v: is_number(v) and v >= 0,
                                  "a number >= 0"),
                                 ("pid", is_int, "an integer"),
                                 ("tid", is_int, "an integer")):
            if key not in e:
                problems.append(f'{where}: no "{key}"')
                bad = True
            elif not check(e[key]):
                problems.append(f'{where}: "{key}" is {e[key]!r}, not {what}')
                bad = True
        if bad:
            continue
        if "args" in e and not isinstance(e["args"], dict):
            problems.append(f'{where}: "args" is not an object')
            continue
        ph = e["ph"]
        if ph == "X":
            dur = e.get("dur")
            if not is_number(dur) or dur < 0:
                problems.append(f'{where}: "dur" is {dur!r}, not a number >= 0')
                continue
            spans.append(e)
        elif ph == "M":
            name, args = e["name"], e.get("args", {})
            if name not in METADATA:
                problems.append(f"{where}: unknown metadata event")
            elif name.endswith("_name"):
                if not isinstance(args.get("name"), str):
                    problems.append(f'{where}: no string args.name')
                elif name == "process_name":
                    processes[e["pid"]] = args["name"]
                else:
                    threads[(e["pid"], e["tid"])] = args["name"]
            elif not is_int(args.get("sort_index")):
                problems.append(f"{where}: no integer args.sort_index")
        else:
            problems.append(f'{where}: phase "{ph}" is not "X" or "M"')

    tracks = collections.defaultdict(list)
    for s in spans:
        tracks[(s["pid"], s["tid"])].append(s)
    for (pid, tid), on_track in sorted(tracks.items()):
        if pid not in processes:
            problems.append(f"pid {pid} has spans but no process_name")
        if (pid, tid) not in threads:
            problems.append(f"track pid {pid} tid {tid} has spans but no "
                            "thread_name")
        # Sorted by start, longest first: each span must end within every
        # open one that contains its start.
        ordered = sorted(on_track, key=lambda s: (ns(s["ts"]), -ns(s["dur"])))
        stack = []
        for s in ordered:
            start, end = ns(s["ts"]), ns(s["ts"]) + ns(s["dur"])
            while stack and ns(stack[-1]["ts"]) + ns(stack[-1]["dur"]) <= start:
                stack.pop()
            if stack:
                parent = stack[-1]
                parent_end = ns(parent["ts"]) + ns(parent["dur"])
                if end > parent_end:
                    problems.append(
                        f"pid {pid} tid {tid}: span {s['name']!r} "
                        f"[{start}, {end}) ns overlaps {parent['name']!r} "
                        f"[{ns(parent['ts'])}, {parent_end}) ns without "
                        "nesting")
                    continue
            stack.append(s)
    return problems, spans, processes, threads


def summarize(spans, processes, threads, patterns, top=12):
    lines = []
    used = collections.defaultdict(set)
    for s in spans:
        used[s["pid"]].add(s["tid"])
    lines.append(f"valid: {len(spans)} spans on "
                 f"{sum(len(t) for t in used.values())} tracks in "
                 f"{len(used)} processes")
    for pid in sorted(used):
        names = [threads[(pid, t)] for t in sorted(used[pid])]
        lines.append(f"process {pid} '{processes[pid]}': {len(names)} "
                     f"track{'s' if len(names) != 1 else ''}: "
                     + ", ".join(names))
    totals = collections.defaultdict(lambda: [0, 0])
    for s in spans:
        key = (processes[s["pid"]], s["name"])
        totals[key][0] += ns(s["dur"])
        totals[key][1] += 1
    lines.append("top spans (total time, count, process, name):")
    ranked = sorted(totals.items(), key=lambda kv: (-kv[1][0], kv[0]))
    for (process, name), (total, count) in ranked[:top]:
        lines.append(f"  {total / 1e6:10.3f} ms {count:6d}x  {process}: {name}")
    for pattern in patterns:
        regex = re.compile(pattern)
        for pid in sorted(used):
            hits = {s["tid"] for s in spans
                    if s["pid"] == pid and regex.search(s["name"])}
            if hits:
                lines.append(f"tracks with '{pattern}': {len(hits)} of "
                             f"{len(used[pid])} in '{processes[pid]}'")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("--tracks-with", action="append", default=[],
                        metavar="REGEX",
                        help="count the tracks with a span matching REGEX")
    parser.add_argument("--top", type=int, default=12,
                        help="how many span names the summary ranks")
    args = parser.parse_args()
    try:
        with open(args.trace, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        print(f"validate_trace: cannot read {args.trace}: {e.strerror}",
              file=sys.stderr)
        return 2
    try:
        trace = json.loads(text)
    except json.JSONDecodeError as e:
        print(f"{args.trace}: not JSON: {e}", file=sys.stderr)
        return 1
    problems, spans, processes, threads = validate(trace)
    if problems:
        for p in problems:
            print(f"{args.trace}: {p}", file=sys.stderr)
        return 1
    print("\n".join(summarize(spans, processes, threads, args.tracks_with,
                              args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
