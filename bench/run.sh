#!/usr/bin/env bash
# Gateway benchmark: added latency and throughput of a small tools/call, side by side in one run, and heap per
# idle session. Usage:  bash bench/run.sh [seconds-per-measurement]   (default 10; results in bench/results/)
#
# Configurations, all fronting the same probe MCP server (src/test/node/probe-server.mjs, tool "echo"):
#   direct          the probe's own streamable-HTTP endpoint
#   cloakgate-http  cloakgate with the probe as an HTTP upstream (what the gateway itself adds)
#   supergateway    supergateway 4.0.0 (stateful stdio -> streamable HTTP) in front of the probe over stdio
#   cloakgate-stdio cloakgate with the probe as a stdio upstream (the like-for-like peer of supergateway)
#   cloakgate-http-cloaked  as cloakgate-http with cloaking on (all categories and PERSON; concurrency 1 only)
# The first two gateway tenants run with "sanitize": false: they measure the gateway core, like the peers.
# BASE=<rev> also starts the gateway built at that commit (in a scratch worktree) beside this one, and measures
# its three tenants the same way, interleaved row by row (labels end in @<sha>): a before/after in one run.
set -euo pipefail
cd "$(dirname "$0")/.."
SECS=${1:-10}
WARMUP=${WARMUP:-10}
OUT=bench/results
mkdir -p "$OUT"
STAMP=$(date -u +%Y-%m-%dT%H%M%SZ)
RESULT="$OUT/gateway-$STAMP.jsonl"

[ -d src/test/node/node_modules ] || npm ci --prefix src/test/node --no-audit --no-fund
./mvnw -B -q package -DskipTests

WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 300); do (echo > "/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.1; done; echo "port $1 never opened" >&2; exit 1; }

PROBE="$PWD/src/test/node/probe-server.mjs"
node "$PROBE" http 0 --name bench > "$WORK/probe.out" 2> "$WORK/probe.err" &
PIDS+=($!)
for _ in $(seq 1 100); do grep -q LISTENING "$WORK/probe.out" 2>/dev/null && break; sleep 0.1; done
PROBE_PORT=$(awk '/LISTENING/ {print $2}' "$WORK/probe.out")

mkdir -p "$WORK/tenants"
printf '{"upstreams":{"p":{"url":"http://127.0.0.1:%s/mcp"}},"namespace":"none","sanitize":false}' "$PROBE_PORT" > "$WORK/tenants/bench-http.json"
printf '{"upstreams":{"p":{"command":"node","args":["%s","stdio","--name","bench"]}},"namespace":"none","sanitize":false}' "$PROBE" > "$WORK/tenants/bench-stdio.json"
printf '{"upstreams":{"p":{"url":"http://127.0.0.1:%s/mcp"}},"namespace":"none"}' "$PROBE_PORT" > "$WORK/tenants/bench-cloaked.json"

GW_PORT=$(free_port)
# health and metrics are on the management interface, its own port (default 9000): one free port per gateway
GW_MGMT_PORT=$(free_port)
# the ledger records every call, as in production; its signing key is a throwaway dev key under $WORK/data
java -Xmx1g -Dcloakgate.tenants-dir="$WORK/tenants" -Dcloakgate.data-dir="$WORK/data" -Dquarkus.http.port="$GW_PORT" \
  -Dquarkus.management.port="$GW_MGMT_PORT" -Dcloakgate.ledger.dev-key=true -Dquarkus.log.level=WARN -jar target/quarkus-app/quarkus-run.jar > "$WORK/gateway.log" 2>&1 &
GW_PID=$!
PIDS+=($GW_PID)
wait_port "$GW_PORT"

if [ -n "${BASE:-}" ]; then
  BASE_SHA=$(git rev-parse --short "$BASE")
  BASE_DIR="$PWD/target/bench-base/$BASE_SHA"
  [ -d "$BASE_DIR" ] || git worktree add --detach "$BASE_DIR" "$BASE_SHA" > /dev/null
  (cd "$BASE_DIR" && ./mvnw -B -q package -DskipTests)
  BASE_PORT=$(free_port)
  BASE_MGMT_PORT=$(free_port)
  java -Xmx1g -Dcloakgate.tenants-dir="$WORK/tenants" -Dcloakgate.data-dir="$WORK/data-base" -Dquarkus.http.port="$BASE_PORT" \
    -Dquarkus.management.port="$BASE_MGMT_PORT" -Dcloakgate.ledger.dev-key=true -Dquarkus.log.level=WARN -jar "$BASE_DIR/target/quarkus-app/quarkus-run.jar" > "$WORK/gateway-base.log" 2>&1 &
  PIDS+=($!)
  wait_port "$BASE_PORT"
fi

SG_PORT=$(free_port)
node src/test/node/node_modules/supergateway/dist/index.js --stdio "node $PROBE stdio --name bench" \
  --outputTransport streamableHttp --stateful --port "$SG_PORT" --logLevel none > "$WORK/sg.log" 2>&1 &
PIDS+=($!)
wait_port "$SG_PORT"

run() { # label url concurrency
  java bench/LoadGen.java latency "$2" echo "$3" "$SECS" "$WARMUP" "$1" | tee -a "$RESULT"
}
for c in 1 32; do
  run direct          "http://127.0.0.1:$PROBE_PORT/mcp"           $c
  run cloakgate-http  "http://127.0.0.1:$GW_PORT/t/bench-http/mcp"  $c
  run supergateway    "http://127.0.0.1:$SG_PORT/mcp"               $c
  run cloakgate-stdio "http://127.0.0.1:$GW_PORT/t/bench-stdio/mcp" $c
  if [ -n "${BASE:-}" ]; then
    run "cloakgate-http@$BASE_SHA"  "http://127.0.0.1:$BASE_PORT/t/bench-http/mcp"  $c
    run "cloakgate-stdio@$BASE_SHA" "http://127.0.0.1:$BASE_PORT/t/bench-stdio/mcp" $c
  fi
done
run cloakgate-http-cloaked "http://127.0.0.1:$GW_PORT/t/bench-cloaked/mcp" 1
if [ -n "${BASE:-}" ]; then
  run "cloakgate-http-cloaked@$BASE_SHA" "http://127.0.0.1:$BASE_PORT/t/bench-cloaked/mcp" 1
fi

# Heap per idle session: used heap after a full GC, before and after opening 1,000 sessions (HTTP upstream).
heap_used() { jcmd "$GW_PID" GC.run > /dev/null; sleep 1; jcmd "$GW_PID" GC.heap_info | awk '/garbage-first heap/ {for (i=1;i<=NF;i++) if ($i=="used") print $(i+1)}' | tr -d 'K,'; }
BEFORE=$(heap_used)
mkfifo "$WORK/hold"
java bench/LoadGen.java sessions "http://127.0.0.1:$GW_PORT/t/bench-http/mcp" 1000 < "$WORK/hold" > "$WORK/sessions.out" &
HOLDER=$!
exec 3> "$WORK/hold"
for _ in $(seq 1 1200); do grep -q READY "$WORK/sessions.out" 2>/dev/null && break; sleep 0.5; done
AFTER=$(heap_used)
exec 3>&-
wait $HOLDER || true
echo "{\"label\":\"heap-per-idle-session\",\"sessions\":1000,\"heapBeforeKiB\":$BEFORE,\"heapAfterKiB\":$AFTER,\"perSessionKiB\":$(( (AFTER - BEFORE) / 1000 ))}" | tee -a "$RESULT"

echo
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(java -version 2>&1 | head -1)"
echo "results: $RESULT"
