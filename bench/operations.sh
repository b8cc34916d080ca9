#!/usr/bin/env bash
# The operations store on the gated call path (issue 11):  bash bench/operations.sh   (results in bench/results/operations-*.jsonl)
# begin (durable before the call is forwarded), settle with a cloaked result, both, and a replay, on a real SQLite
# file (WAL, synchronous=FULL) under ${TMPDIR:-/tmp} (must be a real disk: the fsync is the cost), beside the disk's
# floor (one 4 KiB write + fsync). CALLS=n sets the number of calls (default 20000).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/harness.sh
harness_compile bench/OperationsBench.java
OUT="$(harness_results operations)"
java -Xms256m -Xmx256m -Dbench.dir="${TMPDIR:-/tmp}" -Dbench.calls="${CALLS:-20000}" -cp "$CP" OperationsBench | tee "$OUT"
echo "results: $OUT"
