#!/usr/bin/env bash
# Evidence ledger: append throughput, latency added per tool call, export and offline verification of 1,000,000
# entries:  bash bench/ledger.sh   (results in bench/results/ledger-*.jsonl; about 5 minutes)
# The ledger on PostgreSQL next to SQLite (issue 17): bash bench/ledger-stores.sh
# Runs on BOTH cores (no taskset): the ledger has its own writer thread, as in the gateway.
# The ledger files go to a temp dir under ${TMPDIR:-/tmp} (must be a real disk: fsync is part of the cost);
# KEEP=1 keeps them, to re-verify the bundle with:  java -Dbench.runs=N ... LedgerBench verify BUNDLE VKEY VKEY
# (the log's checkpoint and manifest verifier keys, printed by the run as "trust")
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/harness.sh
harness_compile bench/PolicyBench.java bench/LedgerBench.java
OUT="$(harness_results ledger)"
java -Xms2g -Xmx2g -Dbench.dir="${TMPDIR:-/tmp}" -Dbench.keep="${KEEP:-false}" \
    -cp "$CP" LedgerBench | tee "$OUT"
echo "results: $OUT"
