#!/usr/bin/env bash
# Process economy (issue 10): memory and connect time of COUNT sessions (default 100) on a stdio server, one child
# per session and one shared child ("shared": true). Usage:  bash bench/sessions.sh [count]   (results in bench/results/)
#
# The server is the real @modelcontextprotocol/server-filesystem, run with node from src/test/node/node_modules (not
# npx, which adds its own npm and sh processes per child). For each mode: a fresh gateway; COUNT sessions opened one
# after the other (each initialize timed: it spawns or joins the children), one list_allowed_directories call in
# each; then, with every session held, the resident memory (RSS) of the gateway and of its child processes, and the
# gateway's used heap after a full GC.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${1:-100}
. bench/harness.sh
mkdir -p bench/results
RESULT=$(harness_results sessions)

[ -d src/test/node/node_modules ] || npm ci --prefix src/test/node --no-audit --no-fund
[ -f target/quarkus-app/quarkus-run.jar ] && [ -z "${REBUILD:-}" ] || ./mvnw -B -q package -DskipTests

WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

# RSS in KiB of the process and of its descendants, and how many descendants there are
tree_rss() {
  python3 - "$1" <<'PY'
import os, sys
root = int(sys.argv[1]); kids = {}; rss = {}
for p in os.listdir('/proc'):
    if not p.isdigit(): continue
    try:
        st = open(f'/proc/{p}/stat').read().rsplit(')', 1)[1].split()
        kids.setdefault(int(st[1]), []).append(int(p))
        rss[int(p)] = int(st[21]) * os.sysconf('SC_PAGE_SIZE') // 1024
    except (OSError, IndexError): pass
todo, seen = list(kids.get(root, [])), []
while todo:
    p = todo.pop(); seen.append(p); todo += kids.get(p, [])
print(rss.get(root, 0), sum(rss.get(p, 0) for p in seen), len(seen))
PY
}
heap_used() { jcmd "$1" GC.run > /dev/null; sleep 1; jcmd "$1" GC.heap_info | awk '/garbage-first heap/ {for (i=1;i<=NF;i++) if ($i=="used") print $(i+1)}' | tr -d 'K,'; }

FS="$PWD/src/test/node/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
mkdir -p "$WORK/root" "$WORK/tenants"
echo "hello" > "$WORK/root/hello.txt"
for mode in per-session shared; do
  SHARED=false; [ "$mode" = shared ] && SHARED=true
  echo "{\"upstreams\":{\"fs\":{\"command\":\"node\",\"args\":[\"$FS\",\"$WORK/root\"],\"shared\":$SHARED}},\"namespace\":\"none\",\"sanitize\":false,\"auth\":{\"mode\":\"none\"},\"limits\":{\"max_sessions\":$((COUNT + 10)),\"max_stdio_children\":$((COUNT + 10))}}" > "$WORK/tenants/bench-$mode.json"
done

for mode in per-session shared; do
  PORT=$(free_port)
  java -Xmx1g -Dcloakgate.tenants-dir="$WORK/tenants" -Dcloakgate.data-dir="$WORK/data-$mode" -Dquarkus.http.port="$PORT" \
    -Dcloakgate.ledger.dev-key=true -Dquarkus.log.level=WARN -jar target/quarkus-app/quarkus-run.jar > "$WORK/gateway-$mode.log" 2>&1 &
  GW=$!
  PIDS+=($GW)
  wait_port "$PORT"
  read -r GW_IDLE _ _ < <(tree_rss "$GW")
  HEAP_IDLE=$(heap_used "$GW")
  rm -f "$WORK/hold"; mkfifo "$WORK/hold"
  java bench/SessionsBench.java "http://127.0.0.1:$PORT/t/bench-$mode/mcp" "$COUNT" list_allowed_directories '{}' "$mode" \
    < "$WORK/hold" > "$WORK/sessions-$mode.out" &
  HOLDER=$!
  exec 3> "$WORK/hold"
  for _ in $(seq 1 2400); do grep -q READY "$WORK/sessions-$mode.out" 2>/dev/null && break; sleep 0.5; done
  sleep 2
  read -r GW_RSS CHILD_RSS CHILDREN < <(tree_rss "$GW")
  HEAP=$(heap_used "$GW")
  LINE=$(head -1 "$WORK/sessions-$mode.out")
  echo "${LINE%\}},\"gatewayRssIdleKiB\":$GW_IDLE,\"gatewayRssKiB\":$GW_RSS,\"childProcesses\":$CHILDREN,\"childRssKiB\":$CHILD_RSS,\"totalRssKiB\":$((GW_RSS + CHILD_RSS)),\"heapIdleKiB\":$HEAP_IDLE,\"heapKiB\":$HEAP}" | tee -a "$RESULT"
  exec 3>&-
  wait $HOLDER || true
  kill "$GW"; wait "$GW" 2>/dev/null || true
done

echo
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(java -version 2>&1 | head -1), node $(node --version)"
echo "results: $RESULT"
