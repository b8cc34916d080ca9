# Sourced by the single-file harnesses (cloak.sh, policy.sh, ledger.sh, sessions.sh), from the repository root:
# `harness_compile SOURCE...` builds the gateway's classes, compiles the harness sources against them and sets CP
# (harness classes, gateway classes, runtime dependencies); `harness_results NAME` prints a fresh results path;
# `harness_base REV SOURCE...` does the same for the commit REV in a scratch worktree under target/bench-base and
# sets BASE_CP, so a harness can measure that commit beside the working tree in one run (side by side).
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

harness_base() {
    local rev="$1"
    shift
    local sha
    sha="$(git rev-parse --short "$rev")"
    local dir="$PWD/target/bench-base/$sha"
    if [ ! -d "$dir" ]; then
        git worktree add --detach "$dir" "$sha" > /dev/null
    fi
    local here="$PWD"
    local sources=()
    for s in "$@"; do sources+=("$here/$s"); done
    (
        cd "$dir"
        ./mvnw -B -q compile
        ./mvnw -B -q dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile=target/bench-classpath.txt
        mkdir -p target/bench-classes
        # the working tree's harness, compiled against the older classes; if their API differs, that commit's own
        javac -d target/bench-classes -cp "target/classes:$(cat target/bench-classpath.txt)" "${sources[@]}" 2> /dev/null \
            || javac -d target/bench-classes -cp "target/classes:$(cat target/bench-classpath.txt)" "$@"
    )
    BASE_CP="$dir/target/bench-classes:$dir/target/classes:$(cat "$dir/target/bench-classpath.txt")"
    BASE_SHA="$sha"
}

# For harnesses that start the packaged gateway (sessions.sh): a free local port, and waiting for one to open.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 300); do (echo > "/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; echo "port $1 never opened" >&2; exit 1; }
