#!/usr/bin/env bash
# The action boundary alone on one core (issue 11):  bash bench/action.sh   (results in bench/results/action-*.jsonl)
# What ActionBoundary.check costs per call (contract, fingerprint, receipt found and verified; the receipt's signature
# check memoized by the SHA-256 of its bytes), next to its parts and to a cold receipt and task-context verification;
# then the gate's whole per-call work (gate-per-call-*): TenantGate.release(tool), certification verified at every call,
# plus the boundary with the receipt read from an approvals directory, the gate built from real files by TenantGate.load.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/harness.sh
harness_compile bench/ActionBench.java
OUT="$(harness_results action)"
taskset -c 0 java -XX:ActiveProcessorCount=1 -Xms256m -Xmx256m -cp "$CP" ActionBench | tee "$OUT"
echo "results: $OUT"
