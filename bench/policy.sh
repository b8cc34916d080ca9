#!/usr/bin/env bash
# Policy evaluation cost on one core:  bash bench/policy.sh   (results in bench/results/policy-*.jsonl)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/harness.sh
harness_compile bench/PolicyBench.java
OUT="$(harness_results policy)"
taskset -c 0 java -XX:ActiveProcessorCount=1 -Xms1g -Xmx1g -cp "$CP" PolicyBench | tee "$OUT"
echo "results: $OUT"
