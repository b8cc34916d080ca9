#!/usr/bin/env bash
# The release gate alone on one core (issue 11):  bash bench/release.sh   (results in bench/results/release-*.jsonl)
# What CertificationVerifier.verify and ReleaseGate.check cost per call with the certification verified at every
# call (signature validity remembered for the exact bytes; window, revocations, release, environment each time),
# a denied call, and a cold verification (parse + Ed25519) for comparison.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/harness.sh
harness_compile bench/ReleaseBench.java
OUT="$(harness_results release)"
taskset -c 0 java -XX:ActiveProcessorCount=1 -Xms256m -Xmx256m -cp "$CP" ReleaseBench | tee "$OUT"
echo "results: $OUT"
