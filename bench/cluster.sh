#!/usr/bin/env bash
# Issue 17: what forwarding adds. Two packaged gateway replicas in cluster mode (r0, r1, one shared key and one
# PostgreSQL database (harness_postgres), each naming
# both as peers) in front of one probe MCP server over HTTP (src/test/node/probe-server.mjs, tool "echo"); one MCP
# session owned by r0; the same small tools/call sent alternately to r0 (on the owner) and to r1 (forwarded to r0),
# latency measured by the client (bench/ForwardBench.java). Usage:  bash bench/cluster.sh [seconds] (default 20;
# WARMUP=seconds, default 20). Results appended to bench/results/cluster-<stamp>.jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-20}
WARMUP=${WARMUP:-20}
mkdir -p bench/results
RESULT="bench/results/cluster-$(date -u +%Y-%m-%dT%H%M%SZ).jsonl"

[ -d src/test/node/node_modules ] || npm ci --prefix src/test/node --no-audit --no-fund
[ -n "${SKIP_PACKAGE:-}" ] || ./mvnw -B -q package -DskipTests

WORK=$(mktemp -d)
PIDS=()
# shellcheck source=bench/harness.sh
source bench/harness.sh # free_port, wait_port, harness_postgres
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; harness_postgres_stop; rm -rf "$WORK"; }
trap cleanup EXIT
# replicas share their state in PostgreSQL (cluster mode requires it) and sign one log per tenant with one key
harness_postgres
[ -n "$PG_URL" ] || { echo "cluster.sh needs PostgreSQL: apt-get install postgresql, or set BENCH_PG_URL" >&2; exit 1; }
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$WORK/ledger.key"

node src/test/node/probe-server.mjs http 0 --name bench > "$WORK/probe.out" 2> "$WORK/probe.err" &
PIDS+=($!)
until PROBE_PORT=$(awk '/LISTENING/ {print $2}' "$WORK/probe.out" 2>/dev/null) && [ -n "$PROBE_PORT" ]; do sleep 0.1; done

mkdir -p "$WORK/tenants"
echo "{\"upstreams\":{\"p\":{\"url\":\"http://127.0.0.1:$PROBE_PORT/mcp\"}},\"namespace\":\"none\",\"sanitize\":false,\"auth\":{\"mode\":\"none\"}}" \
    > "$WORK/tenants/bench.json"
head -c 32 /dev/urandom | base64 > "$WORK/cluster.key"
P0=$(free_port); P1=$(free_port)
PEERS="r0=http://127.0.0.1:$P0,r1=http://127.0.0.1:$P1"
for i in 0 1; do
    PORT=$([ $i = 0 ] && echo "$P0" || echo "$P1")
    java -Xmx512m -Dquarkus.http.port="$PORT" -Dquarkus.management.port="$(free_port)" -Dcloakgate.tenants-dir="$WORK/tenants" \
        -Dcloakgate.data-dir="$WORK/data-r$i" -Dcloakgate.ledger.signing-key-file="$WORK/ledger.key" \
        -Dcloakgate.ledger.log-identity=bench.cluster.example -Dcloakgate.store=postgresql \
        -Dquarkus.datasource.jdbc.url="$PG_URL" -Dquarkus.datasource.username="$PG_USER" \
        -Dquarkus.datasource.password="$PG_PASSWORD" -Dcloakgate.cluster.replica-id="r$i" \
        -Dcloakgate.cluster.key-file="$WORK/cluster.key" -Dcloakgate.cluster.peers="$PEERS" \
        -jar target/quarkus-app/quarkus-run.jar > "$WORK/r$i.log" 2>&1 &
    PIDS+=($!)
done
wait_port "$P0"; wait_port "$P1"
java bench/ForwardBench.java "http://127.0.0.1:$P0/t/bench/mcp" "http://127.0.0.1:$P1/t/bench/mcp" "$WARMUP" "$SECS" \
    "$(date -u +%Y-%m-%dT%H%M%SZ)" | tee -a "$RESULT"
echo "results: $RESULT"
