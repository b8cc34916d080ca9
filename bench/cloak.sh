#!/usr/bin/env bash
# Cloaking throughput and linearity on one core:  bash bench/cloak.sh   (results in bench/results/cloak-*.jsonl)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q compile
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile=target/bench-classpath.txt
CP="target/classes:$(cat target/bench-classpath.txt)"
mkdir -p target/bench-classes bench/results
javac -d target/bench-classes -cp "$CP" bench/CloakBench.java
OUT="bench/results/cloak-$(date -u +%Y-%m-%dT%H%M%SZ).jsonl"
# one core: taskset pins the JVM, and the JIT and GC get one thread each
taskset -c 0 java -XX:ActiveProcessorCount=1 -Xms2g -Xmx2g -cp "target/bench-classes:$CP" CloakBench | tee "$OUT"
echo "results: $OUT"
