#!/usr/bin/env bash
# Heap of the gateway while six maximal upstream messages are cloaked at once (issue 9, item 7): the packaged
# gateway with -Xmx1g in front of src/test/node/heavy-server.mjs over HTTP, cloaking on (every category and
# PERSON); six parallel tools/call "huge" results of name-dense text just under cloakgate.upstream.max-message-bytes,
# in one session. Reports the largest heap after a collection (from -Xlog:gc), whether every call got its
# cloaked result, and whether the heap ran out, for each number of large-message workers given.
# Usage:  bash bench/large-messages.sh [workers ...]   (default: 1 2; results in bench/results/)
set -euo pipefail
cd "$(dirname "$0")/.."
WORKERS=("${@:-1}")
[ $# -eq 0 ] && WORKERS=(1 2)
SIZE=${SIZE:-8300000}
OUT=bench/results
mkdir -p "$OUT"
RESULT="$OUT/large-messages-$(date -u +%Y-%m-%dT%H%M%SZ).jsonl"

[ -d src/test/node/node_modules ] || npm ci --prefix src/test/node --no-audit --no-fund
./mvnw -B -q package -DskipTests

WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
# health is on the management interface (its own port), never on the port agents reach
wait_ready() { for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$1/q/health/ready" > /dev/null && return 0; sleep 0.2; done; echo "gateway never ready" >&2; exit 1; }

node src/test/node/heavy-server.mjs http 0 --name big > "$WORK/heavy.out" 2> "$WORK/heavy.err" &
PIDS+=($!)
for _ in $(seq 1 100); do grep -q LISTENING "$WORK/heavy.out" 2>/dev/null && break; sleep 0.1; done
HEAVY_PORT=$(awk '/LISTENING/ {print $2}' "$WORK/heavy.out")
mkdir -p "$WORK/tenants"
printf '{"upstreams":{"big":{"url":"http://127.0.0.1:%s/mcp"}},"namespace":"prefix","sanitize":true}' "$HEAVY_PORT" > "$WORK/tenants/bulk.json"

cat > "$WORK/six.py" <<'EOF'
import json, sys, threading, urllib.request
url, size = sys.argv[1], int(sys.argv[2])
H = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
def post(body, sid=None):
    h = dict(H)
    if sid:
        h.update({"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"})
    r = urllib.request.urlopen(urllib.request.Request(url, json.dumps(body).encode(), h), timeout=600)
    return r.headers.get("mcp-session-id"), r.read().decode()
sid, _ = post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25",
              "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
post({"jsonrpc": "2.0", "method": "notifications/initialized"}, sid)
ok = []
def call(i):
    _, s = post({"jsonrpc": "2.0", "id": 10 + i, "method": "tools/call",
                 "params": {"name": "big__huge", "arguments": {"bytes": size, "pii": True}}}, sid)
    ok.append('"result"' in s and "marie.dubois" not in s)
threads = [threading.Thread(target=call, args=(i,)) for i in range(6)]
[t.start() for t in threads]
[t.join() for t in threads]
print(sum(ok))
EOF

for W in "${WORKERS[@]}"; do
  GW_PORT=$(free_port)
  MGMT_PORT=$(free_port)
  rm -rf "$WORK/data"
  java -Xmx1g -Xlog:gc:file="$WORK/gc-$W.log" -Dcloakgate.tenants-dir="$WORK/tenants" -Dcloakgate.data-dir="$WORK/data" \
    -Dquarkus.http.port="$GW_PORT" -Dquarkus.management.port="$MGMT_PORT" -Dcloakgate.ledger.dev-key=true -Dquarkus.log.level=WARN \
    -Dcloakgate.upstream.large-message-workers="$W" -jar target/quarkus-app/quarkus-run.jar > "$WORK/gateway-$W.log" 2>&1 &
  GW=$!
  PIDS+=($GW)
  wait_ready "$MGMT_PORT"
  START=$(date +%s)
  CLOAKED=$(python3 "$WORK/six.py" "http://127.0.0.1:$GW_PORT/t/bulk/mcp" "$SIZE" || echo 0)
  SECS=$(( $(date +%s) - START ))
  PEAK=$(grep -o '[0-9]*M->[0-9]*M' "$WORK/gc-$W.log" | awk -F'->' '{gsub("M","",$2); if ($2+0>m+0) m=$2} END {print m+0}')
  EXHAUSTED=$(grep -c 'To-space exhausted\|Pause Full' "$WORK/gc-$W.log" || true)
  OOM=$(grep -c OutOfMemoryError "$WORK/gateway-$W.log" || true)
  printf '{"workers":%s,"message_bytes":%s,"calls":6,"cloaked_results":%s,"seconds":%s,"max_heap_after_gc_mb":%s,"to_space_exhausted_or_full_gc":%s,"oom":%s}\n' \
    "$W" "$SIZE" "$CLOAKED" "$SECS" "$PEAK" "$EXHAUSTED" "$OOM" | tee -a "$RESULT"
  kill "$GW"
  wait "$GW" 2>/dev/null || true
done
