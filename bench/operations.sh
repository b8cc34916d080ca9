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
PG_URL="${BENCH_PG_URL:-}"
PG_USER="${BENCH_PG_USER:-bench}"
PG_PASSWORD="${BENCH_PG_PASSWORD:-bench-password}"
if [ -z "$PG_URL" ] && ls -d /usr/lib/postgresql/*/bin > /dev/null 2>&1; then
    BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
    PGDIR="$(mktemp -d "${TMPDIR:-/tmp}/operations-bench-pg-XXXX")"
    AS=()
    if [ "$(id -u)" = 0 ]; then
        chown postgres "$PGDIR"
        AS=(runuser -u postgres --)
    fi
    echo "$PG_PASSWORD" > "$PGDIR/pw"
    "${AS[@]}" "$BIN/initdb" -D "$PGDIR/data" -U "$PG_USER" --pwfile="$PGDIR/pw" -A scram-sha-256 -E UTF8 --locale=C > /dev/null
    PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    "${AS[@]}" "$BIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w -o "-p $PORT -k $PGDIR -c listen_addresses=127.0.0.1" start > /dev/null
    trap '"${AS[@]}" "$BIN/pg_ctl" -D "$PGDIR/data" -m fast -w stop > /dev/null; rm -rf "$PGDIR"' EXIT
    PGPASSWORD="$PG_PASSWORD" "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U "$PG_USER" bench
    PG_URL="jdbc:postgresql://127.0.0.1:$PORT/bench"
fi
java -Xms256m -Xmx256m -Dbench.dir="${TMPDIR:-/tmp}" -Dbench.calls="${CALLS:-20000}" -Dbench.pg.url="$PG_URL" \
    -Dbench.pg.user="$PG_USER" -Dbench.pg.password="$PG_PASSWORD" -cp "$CP" OperationsBench | tee "$OUT"
echo "results: $OUT"
