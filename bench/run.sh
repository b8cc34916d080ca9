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
#   cloakgate-http-open     as cloakgate-http with "auth": {"mode": "none"}: no credential checked
#   cloakgate-http-jwt      as cloakgate-http with a JWT (RS256, its issuer's JWKS from a file) instead of a static token
#   cloakgate-stdio-gated   as cloakgate-stdio with an action gate (issue 11): a release declaring echo, certified, no
#                           contract: the release gate, certification verified at every call
#   cloakgate-stdio-gated-effect  as -gated with a contract making echo a sideEffect tool: every call is an operation
#                           (begin durable before the forward, settled after), named after the session's signed task
#                           context; each call's text is unique, so every call runs (a repeated one would be replayed)
# The first two gateway tenants run with "sanitize": false: they measure the gateway core, like the peers. Every
# gateway tenant but -open asks for a credential (issue 10): LoadGen sends a static agent token, or the JWT; the
# -open and -jwt rows beside cloakgate-http give the cost of the auth check in the same build.
# BASE=<rev> also starts the gateway built at that commit (in a scratch worktree) beside this one, and measures
# its three tenants the same way, interleaved row by row (labels end in @<sha>): a before/after in one run. A
# commit from before tenant files had an "auth" block gets the same tenants without it.
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

mkdir -p "$WORK/tenants" "$WORK/tenants-noauth"
# credentials (issue 10): one static agent token, and a throwaway JWT issuer whose JWKS the gateway reads from a file
TOKEN="bench-static-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
TOKEN_SHA=$(printf %s "$TOKEN" | sha256sum | cut -d' ' -f1)
JWT=$(java bench/LoadGen.java jwt-issuer "$WORK" https://bench.invalid cloakgate-bench system:serviceaccount:bench:loadgen)
LIMITS='"limits":{"calls_per_minute":1000000,"sessions":5000}'
AUTH_STATIC="\"auth\":{\"principals\":{\"loadgen\":{\"roles\":[\"agent\"],\"tokens_sha256\":[\"$TOKEN_SHA\"],$LIMITS}}}"
AUTH_JWT="\"auth\":{\"jwt_issuers\":{\"bench\":{\"issuer\":\"https://bench.invalid\",\"audiences\":[\"cloakgate-bench\"],\"jwks_file\":\"$WORK/jwks.json\"}},\"principals\":{\"loadgen\":{\"roles\":[\"agent\"],\"jwt\":{\"subject\":\"system:serviceaccount:bench:loadgen\"},$LIMITS}}}"
HTTP_UP="\"upstreams\":{\"p\":{\"url\":\"http://127.0.0.1:$PROBE_PORT/mcp\"}},\"namespace\":\"none\""
STDIO_UP="\"upstreams\":{\"p\":{\"command\":\"node\",\"args\":[\"$PROBE\",\"stdio\",\"--name\",\"bench\"]}},\"namespace\":\"none\""
tenant() { # name body-without-braces [auth]: with the auth member in tenants/, without it in tenants-noauth/
  echo "{$2${3:+,$3}}" > "$WORK/tenants/$1.json"
  echo "{$2}" > "$WORK/tenants-noauth/$1.json"
}
tenant bench-http    "$HTTP_UP,\"sanitize\":false"  "$AUTH_STATIC"
tenant bench-stdio   "$STDIO_UP,\"sanitize\":false" "$AUTH_STATIC"
tenant bench-cloaked "$HTTP_UP"                     "$AUTH_STATIC"
echo "{$HTTP_UP,\"sanitize\":false,\"auth\":{\"mode\":\"none\"}}" > "$WORK/tenants/bench-http-open.json"
echo "{$HTTP_UP,\"sanitize\":false,$AUTH_JWT}" > "$WORK/tenants/bench-http-jwt.json"

# issue 11: the gated tenants, set up with the jar's own commands (keys, contract reference, certification, task context)
JAR="java -jar target/quarkus-app/quarkus-run.jar"
G="$WORK/gate"
mkdir -p "$G"
GATE_KEY=$($JAR release keygen --out "$G/release.key" 2> /dev/null)
ORCH_KEY=$($JAR release keygen --out "$G/orchestrator.key" 2> /dev/null)
cat > "$G/contract.yaml" << 'YAML'
apiVersion: cloakpipe.co/v1alpha1
kind: ToolContract
metadata: { name: bench-echo }
spec:
  tools:
    echo:
      sideEffect: true
      arguments:
        text: { type: string, maxLength: 64 }
      required: [text]
YAML
printf 'apiVersion: cloakpipe.co/v1alpha1\nkind: Release\nmetadata: { name: bench }\nspec:\n  tools:\n    - tool:echo@1\n' > "$G/release.yaml"
cp "$G/release.yaml" "$G/release-effect.yaml"
printf '  policies:\n    - %s\n' "$($JAR release hash --contract "$G/contract.yaml" 2> /dev/null)" >> "$G/release-effect.yaml"
for r in release release-effect; do
  $JAR release certify --manifest "$G/$r.yaml" --key "$G/release.key" --environment bench --expires 1d --out "$G/$r.cert.json" > /dev/null
done
echo '{"taskId": "bench-task"}' > "$G/task.json"
TASK_CONTEXT=$($JAR task sign --context "$G/task.json" --key "$G/orchestrator.key" --expires 12h --out "$G/task.dsse.json" 2> /dev/null)
GATE="\"gate\":{\"manifest\":\"$G/release.yaml\",\"certification\":\"$G/release.cert.json\",\"trust_keys\":[\"$GATE_KEY\"],\"environment\":\"bench\"}"
GATE_EFFECT="\"gate\":{\"manifest\":\"$G/release-effect.yaml\",\"certification\":\"$G/release-effect.cert.json\",\"trust_keys\":[\"$GATE_KEY\"],\"environment\":\"bench\",\"contracts\":[\"$G/contract.yaml\"],\"orchestrator_keys\":[\"$ORCH_KEY\"]}"
echo "{$STDIO_UP,\"sanitize\":false,$AUTH_STATIC,$GATE}" > "$WORK/tenants/bench-gated.json"
echo "{$STDIO_UP,\"sanitize\":false,$AUTH_STATIC,$GATE_EFFECT}" > "$WORK/tenants/bench-gated-effect.json"

GW_PORT=$(free_port)
# health and metrics are on the management interface, its own port (default 9000): one free port per gateway
GW_MGMT_PORT=$(free_port)
# the ledger records every call, as in production; its signing key is a throwaway dev key under $WORK/data
java -Xmx1g -Dcloakgate.tenants-dir="$WORK/tenants" -Dcloakgate.data-dir="$WORK/data" -Dcloakgate.session.max-sessions-per-tenant=5000 -Dquarkus.http.port="$GW_PORT" \
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
  # a commit that predates the auth block refuses it as an unknown key: give it the same tenants without one
  BASE_TENANTS="$WORK/tenants"
  git grep -q jwt_issuers "$BASE_SHA" -- src/main/java || BASE_TENANTS="$WORK/tenants-noauth"
  # a commit before the management interface ignores the management port setting
  java -Xmx1g -Dcloakgate.tenants-dir="$BASE_TENANTS" -Dcloakgate.data-dir="$WORK/data-base" -Dquarkus.http.port="$BASE_PORT" \
    -Dquarkus.management.port="$BASE_MGMT_PORT" -Dcloakgate.ledger.dev-key=true -Dquarkus.log.level=WARN -jar "$BASE_DIR/target/quarkus-app/quarkus-run.jar" > "$WORK/gateway-base.log" 2>&1 &
  PIDS+=($!)
  wait_port "$BASE_PORT"
fi

SG_PORT=$(free_port)
node src/test/node/node_modules/supergateway/dist/index.js --stdio "node $PROBE stdio --name bench" \
  --outputTransport streamableHttp --stateful --port "$SG_PORT" --logLevel none > "$WORK/sg.log" 2>&1 &
PIDS+=($!)
wait_port "$SG_PORT"

run() { # label url concurrency [bearer credential]
  LOADGEN_TOKEN="${4:-}" java bench/LoadGen.java latency "$2" echo "$3" "$SECS" "$WARMUP" "$1" | tee -a "$RESULT"
}
run_effect() { # label url concurrency bearer: with the signed task context, a unique argument per call
  LOADGEN_TOKEN="$4" LOADGEN_TASK_CONTEXT="$TASK_CONTEXT" LOADGEN_UNIQUE_ARGS=1 \
    java bench/LoadGen.java latency "$2" echo "$3" "$SECS" "$WARMUP" "$1" | tee -a "$RESULT"
}
for c in 1 32; do
  run direct          "http://127.0.0.1:$PROBE_PORT/mcp"           $c
  run cloakgate-http  "http://127.0.0.1:$GW_PORT/t/bench-http/mcp"  $c "$TOKEN"
  run cloakgate-http-open "http://127.0.0.1:$GW_PORT/t/bench-http-open/mcp" $c
  run cloakgate-http-jwt  "http://127.0.0.1:$GW_PORT/t/bench-http-jwt/mcp"  $c "$JWT"
  run supergateway    "http://127.0.0.1:$SG_PORT/mcp"               $c
  run cloakgate-stdio "http://127.0.0.1:$GW_PORT/t/bench-stdio/mcp" $c "$TOKEN"
  run cloakgate-stdio-gated "http://127.0.0.1:$GW_PORT/t/bench-gated/mcp" $c "$TOKEN"
  run_effect cloakgate-stdio-gated-effect "http://127.0.0.1:$GW_PORT/t/bench-gated-effect/mcp" $c "$TOKEN"
  if [ -n "${BASE:-}" ]; then
    run "cloakgate-http@$BASE_SHA"  "http://127.0.0.1:$BASE_PORT/t/bench-http/mcp"  $c "$TOKEN"
    run "cloakgate-stdio@$BASE_SHA" "http://127.0.0.1:$BASE_PORT/t/bench-stdio/mcp" $c "$TOKEN"
  fi
done
run cloakgate-http-cloaked "http://127.0.0.1:$GW_PORT/t/bench-cloaked/mcp" 1 "$TOKEN"
if [ -n "${BASE:-}" ]; then
  run "cloakgate-http-cloaked@$BASE_SHA" "http://127.0.0.1:$BASE_PORT/t/bench-cloaked/mcp" 1 "$TOKEN"
fi

# Heap per idle session: used heap after a full GC, before and after opening 1,000 sessions (HTTP upstream).
heap_used() { jcmd "$GW_PID" GC.run > /dev/null; sleep 1; jcmd "$GW_PID" GC.heap_info | awk '/garbage-first heap/ {for (i=1;i<=NF;i++) if ($i=="used") print $(i+1)}' | tr -d 'K,'; }
BEFORE=$(heap_used)
mkfifo "$WORK/hold"
LOADGEN_TOKEN="$TOKEN" java bench/LoadGen.java sessions "http://127.0.0.1:$GW_PORT/t/bench-http/mcp" 1000 < "$WORK/hold" > "$WORK/sessions.out" &
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
