# Sourced by the single-file harnesses (cloak.sh, policy.sh, ledger.sh), from the repository root:
# `harness_compile SOURCE...` builds the gateway's classes, compiles the harness sources against them and sets CP
# (harness classes, gateway classes, runtime dependencies); `harness_results NAME` prints a fresh results path.
harness_compile() {
    ./mvnw -B -q compile
    ./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile=target/bench-classpath.txt
    CP="target/bench-classes:target/classes:$(cat target/bench-classpath.txt)"
    mkdir -p target/bench-classes bench/results
    javac -d target/bench-classes -cp "$CP" "$@"
}

harness_results() {
    echo "bench/results/$1-$(date -u +%Y-%m-%dT%H%M%SZ).jsonl"
}
