#!/usr/bin/env bash
# Cloaking throughput and linearity on one core:  bash bench/cloak.sh   (results in bench/results/cloak-*.jsonl)
# Side by side with an earlier commit in the same run:  BASE=<rev> bash bench/cloak.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/harness.sh
harness_compile bench/CloakBench.java
OUT="$(harness_results cloak)"
# one core: taskset pins the JVM, and the JIT and GC get one thread each
taskset -c 0 java -XX:ActiveProcessorCount=1 -Xms2g -Xmx2g -cp "$CP" CloakBench | tee "$OUT"
echo "results: $OUT"
if [ -n "${BASE:-}" ]; then
    harness_base "$BASE" bench/CloakBench.java
    BASE_OUT="${OUT%.jsonl}-at-$BASE_SHA.jsonl"
    taskset -c 0 java -XX:ActiveProcessorCount=1 -Xms2g -Xmx2g -cp "$BASE_CP" CloakBench | tee "$BASE_OUT"
    echo "results at $BASE_SHA: $BASE_OUT"
fi
