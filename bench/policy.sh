#!/usr/bin/env bash
# Policy evaluation cost on one core:  bash bench/policy.sh   (results in bench/results/policy-*.jsonl)
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q compile
./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile=target/bench-classpath.txt
CP="target/classes:$(cat target/bench-classpath.txt)"
mkdir -p target/bench-classes bench/results
javac -d target/bench-classes -cp "$CP" bench/PolicyBench.java
OUT="bench/results/policy-$(date -u +%Y-%m-%dT%H%M%SZ).jsonl"
taskset -c 0 java -XX:ActiveProcessorCount=1 -Xms1g -Xmx1g -cp "target/bench-classes:$CP" PolicyBench | tee "$OUT"
echo "results: $OUT"
