#!/usr/bin/env bash
# Injection classifier cost on one core:  bash bench/injection.sh   (results in bench/results/injection-*.jsonl)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/harness.sh
harness_compile bench/InjectionBench.java
OUT="$(harness_results injection)"
taskset -c 0 java -XX:ActiveProcessorCount=1 -Xms512m -Xmx512m -cp "$CP" InjectionBench | tee "$OUT"
echo "results: $OUT"
