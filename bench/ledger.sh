#!/usr/bin/env bash
# Evidence ledger: append throughput, latency added per tool call, export and offline verification of 1,000,000
# entries:  bash bench/ledger.sh   (results in bench/results/ledger-*.jsonl; about 5 minutes)
# Runs on BOTH cores (no taskset): the ledger has its own writer thread, as in the gateway.
# The ledger files go to a temp dir under ${TMPDIR:-/tmp} (must be a real disk: fsync is part of the cost);
# KEEP=1 keeps them, to re-verify the bundle with:  java ... LedgerBench verify BUNDLE KEYID=HEX [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q compile
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile=target/bench-classpath.txt
CP="target/classes:$(cat target/bench-classpath.txt)"
mkdir -p target/bench-classes bench/results
javac -d target/bench-classes -cp "$CP" bench/PolicyBench.java bench/LedgerBench.java
OUT="bench/results/ledger-$(date -u +%Y-%m-%dT%H%M%SZ).jsonl"
java -Xms2g -Xmx2g -Dbench.dir="${TMPDIR:-/tmp}" -Dbench.keep="${KEEP:-false}" \
    -cp "target/bench-classes:$CP" LedgerBench | tee "$OUT"
echo "results: $OUT"
