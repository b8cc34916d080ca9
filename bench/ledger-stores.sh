#!/usr/bin/env bash
# Issue 17: ledger append throughput and latency on SQLite and PostgreSQL side by side, and two writers (two replicas'
# ledgers) on one PostgreSQL log:  bash bench/ledger-stores.sh   (results in bench/results/ledger-stores-*.jsonl;
# about 2 minutes). PostgreSQL: a private throwaway server from the Debian package's binaries (as the tests start it),
# or CLOAKGATE_TEST_PG_URL (+ _USER, _PASSWORD). SECONDS_EACH=n per saturation run (default 15), RATE=n entries/s for
# the paced latency run (default 2000). The SQLite file goes under ${TMPDIR:-/tmp} (a real disk: fsync is the cost).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/harness.sh
harness_compile bench/LedgerStoresBench.java src/test/java/dev/cloakgate/testing/TestPostgres.java \
    src/test/java/dev/cloakgate/testing/PooledDataSource.java
OUT="$(harness_results ledger-stores)"
java -Xms1g -Xmx1g -Dbench.dir="${TMPDIR:-/tmp}" -Dbench.seconds="${SECONDS_EACH:-15}" -Dbench.rate="${RATE:-2000}" \
    -cp "$CP" LedgerStoresBench | tee "$OUT"
echo "results: $OUT"
