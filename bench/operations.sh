#!/usr/bin/env bash
# The operations store on the gated call path (issues 11, 17):  bash bench/operations.sh
# (results in bench/results/operations-*.jsonl). begin (durable before the call is forwarded), settle with a cloaked
# result, both, and a replay, on a real SQLite file (WAL, synchronous=FULL) under ${TMPDIR:-/tmp} (must be a real disk:
# the fsync is the cost), beside the disk's floor (one 4 KiB write + fsync); then the same on PostgreSQL in the same
# run: BENCH_PG_URL (+ BENCH_PG_USER, BENCH_PG_PASSWORD), or else a throwaway server started here from the Debian
# package's binaries (/usr/lib/postgresql/*/bin; apt-get install postgresql) with its default durability (fsync and
# synchronous_commit on), its data under ${TMPDIR:-/tmp} too, over loopback TCP. CALLS=n sets the number of calls
# (default 20000).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/harness.sh
harness_compile bench/OperationsBench.java
OUT="$(harness_results operations)"
harness_postgres
trap harness_postgres_stop EXIT
java -Xms256m -Xmx256m -Dbench.dir="${TMPDIR:-/tmp}" -Dbench.calls="${CALLS:-20000}" -Dbench.pg.url="$PG_URL" \
    -Dbench.pg.user="$PG_USER" -Dbench.pg.password="$PG_PASSWORD" -cp "$CP" OperationsBench | tee "$OUT"
echo "results: $OUT"
