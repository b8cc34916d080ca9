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

# Issue 17: `harness_postgres` sets PG_URL, PG_USER, PG_PASSWORD: BENCH_PG_URL (+ BENCH_PG_USER, BENCH_PG_PASSWORD), or
# else a throwaway server started from the Debian package's binaries (/usr/lib/postgresql/*/bin; apt-get install
# postgresql; as user postgres when run as root) with its default durability (fsync and synchronous_commit on), its
# data under ${TMPDIR:-/tmp}, over loopback TCP; stopped when the script exits. Empty PG_URL: no PostgreSQL here.
harness_postgres() {
    PG_URL="${BENCH_PG_URL:-}"
    PG_USER="${BENCH_PG_USER:-bench}"
    PG_PASSWORD="${BENCH_PG_PASSWORD:-bench-password}"
    if [ -n "$PG_URL" ] || ! ls -d /usr/lib/postgresql/*/bin > /dev/null 2>&1; then
        return 0
    fi
    PG_BIN="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
    PG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/bench-pg-XXXX")"
    PG_AS=()
    if [ "$(id -u)" = 0 ]; then
        chown postgres "$PG_DIR"
        PG_AS=(runuser -u postgres --)
    fi
    echo "$PG_PASSWORD" > "$PG_DIR/pw"
    "${PG_AS[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U "$PG_USER" --pwfile="$PG_DIR/pw" -A scram-sha-256 -E UTF8 --locale=C > /dev/null
    local port
    port="$(free_port)"
    "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w -o "-p $port -k $PG_DIR -c listen_addresses=127.0.0.1" start > /dev/null
    PGPASSWORD="$PG_PASSWORD" "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U "$PG_USER" bench
    PG_URL="jdbc:postgresql://127.0.0.1:$port/bench"
}

# stops the server harness_postgres started (call it from the script's EXIT trap)
harness_postgres_stop() {
    if [ -n "${PG_DIR:-}" ]; then
        "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop > /dev/null || true
        rm -rf "$PG_DIR"
    fi
}
