#!/usr/bin/env bash
# Policy evaluation cost on one core:  bash bench/policy.sh   (results in bench/results/policy-*.jsonl)
# Side by side with an earlier commit in the same run:  BASE=<rev> bash bench/policy.sh   (CORE=1 pins another core)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/harness.sh
harness_compile bench/PolicyBench.java
OUT="$(harness_results policy)"
taskset -c "${CORE:-0}" java -XX:ActiveProcessorCount=1 -Xms1g -Xmx1g -cp "$CP" PolicyBench | tee "$OUT"
echo "results: $OUT"
if [ -n "${BASE:-}" ]; then
    harness_base "$BASE" bench/PolicyBench.java
    BASE_OUT="${OUT%.jsonl}-at-$BASE_SHA.jsonl"
    taskset -c "${CORE:-0}" java -XX:ActiveProcessorCount=1 -Xms1g -Xmx1g -cp "$BASE_CP" PolicyBench | tee "$BASE_OUT"
    echo "results at $BASE_SHA: $BASE_OUT"
fi
