#!/usr/bin/env bash
# Builds of the cloak side by side in ONE JVM, interleaved call by call (a shared machine's load weighs on every build
# alike), on one core:
#   bash bench/cloak-ab.sh 69ad1e0 main          # the working tree first, then each revision named
# CONFIG=regex-only (default regex+PERSON); SECONDS_PER_SIZE=40 (default 30) of rounds per text size (50 KB, 100 KB,
# 1 MB), after a warm-up of the same length (at least 20 s). Results in bench/results/cloak-ab-*.jsonl: per build and
# size the median wall and thread-CPU ms per call with their interquartile range, MB/s, bytes allocated per character
# (MB per MB of text), and the median of each
# round's wall-time ratio to the working tree (below 1: faster than the working tree).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/harness.sh
SOURCES=(bench/CloakBench.java bench/CloakABTarget.java bench/CloakAB.java)
harness_compile "${SOURCES[@]}"
builds=("work=$CP")
for rev in "$@"; do
    harness_base "$rev" "${SOURCES[@]}"
    builds+=("$rev=$BASE_CP")
done
OUT="$(harness_results cloak-ab)"
# one core: taskset pins the JVM, and the JIT and GC get one thread each
taskset -c 0 java -XX:ActiveProcessorCount=1 -Xms3g -Xmx3g -cp target/bench-classes CloakAB \
    "${CONFIG:-regex+PERSON}" "${SECONDS_PER_SIZE:-30}" "${builds[@]}" | tee "$OUT"
echo "results: $OUT"
