// Tests the trace validator the --trace tests use (validate_trace.py): it
// rejects spans on one track that overlap without nesting, tracks and
// processes without names, missing or ill-typed fields, negative durations,
// unknown phases, a bad displayTimeUnit and malformed JSON, each with a
// line naming the problem (exit 1); an unreadable file is exit 2.
// RUN: not python3 %S/validate_trace.py %S/Inputs/traces/overlap.json 2>&1 | FileCheck %s --check-prefix=OVERLAP
// RUN: not python3 %S/validate_trace.py %S/Inputs/traces/unnamed.json 2>&1 | FileCheck %s --check-prefix=UNNAMED
// RUN: not python3 %S/validate_trace.py %S/Inputs/traces/fields.json 2>&1 | FileCheck %s --check-prefix=FIELDS
// RUN: not python3 %S/validate_trace.py %S/Inputs/traces/truncated.json 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: python3 %S/validate_trace.py %S/Inputs/traces/missing.json 2>/dev/null || test $? -eq 2

// OVERLAP: overlap.json: pid 1 tid 1: span 'b' [4000, 9000) ns overlaps 'a' [1000, 6000) ns without nesting

// UNNAMED-DAG: pid 1 has spans but no process_name
// UNNAMED-DAG: track pid 1 tid 2 has spans but no thread_name

// FIELDS-DAG: displayTimeUnit is 'us', not "ms" or "ns"
// FIELDS-DAG: event 2 ('no-dur'): "dur" is None, not a number >= 0
// FIELDS-DAG: event 3 ('negative'): "dur" is -1, not a number >= 0
// FIELDS-DAG: event 4: no "name"
// FIELDS-DAG: event 5 ('no-ts'): no "ts"
// FIELDS-DAG: event 6 ('string-pid'): "pid" is '1', not an integer
// FIELDS-DAG: event 7 ('begin'): phase "B" is not "X" or "M"

// JSON: truncated.json: not JSON:
