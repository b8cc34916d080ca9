#!/usr/bin/env bash
# The auth check alone on one core (issue 10):  bash bench/auth.sh   (results in bench/results/auth-*.jsonl)
# What TenantAuth.authenticate costs per request: a static token among 100 principals' digests, an RS256 JWT with
# its issuer's keys in memory, and refused credentials of each kind. bench/run.sh measures the same over HTTP.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/harness.sh
harness_compile bench/AuthBench.java
OUT="$(harness_results auth)"
taskset -c 0 java -XX:ActiveProcessorCount=1 -Xms256m -Xmx256m -cp "$CP" AuthBench | tee "$OUT"
echo "results: $OUT"
