#!/usr/bin/env bash
# Measures `lfg hook` wall time per call (process start to exit) with the server up, down, and hung.
# Usage: bench/hook-latency.sh [LFG_BINARY] [RUNS]   (default: .build/release/lfg, else .build/debug/lfg; 30 runs)
# "up" uses `lfg serve` when it runs, else a tiny stand-in that answers every PUT with 200.
set -euo pipefail
cd "$(dirname "$0")/.."
LFG=${1:-}
[ -n "$LFG" ] || { [ -x .build/release/lfg ] && LFG=.build/release/lfg || LFG=.build/debug/lfg; }
RUNS=${2:-30}
WORK=$(mktemp -d)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

PAYLOAD='{"session_id":"bench-1","cwd":"/work/LFG","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"swift test N"}}'

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

stand_in() {  # $1 port, $2 mode: ok | hang
  python3 - "$1" "$2" <<'PY' &
import http.server, sys, time
port, mode = int(sys.argv[1]), sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def do_PUT(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if mode == "hang": time.sleep(30)
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"{}")
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"{}")
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", port), H).serve_forever()
PY
  PIDS+=($!)
}

wait_up() { for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$1/healthz" && return 0; sleep 0.05; done; return 1; }

measure() {  # $1 label, $2 url
  local home="$WORK/home-$1"; mkdir -p "$home"
  local times=()
  for i in $(seq "$RUNS"); do
    local start end
    start=$(date +%s%N)
    echo "${PAYLOAD/N/$i}" | LFG_HOME="$home" LFG_URL="$2" LFG_AUTH_TOKEN="$TOKEN" "$LFG" hook 2>/dev/null >/dev/null
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
  done
  # Sessions with events or reports still pending (the hook keeps a session's inbox folder until then).
  local pending; pending=$(ls "$home/hook-inbox" 2>/dev/null | wc -l)
  printf '%s\n' "${times[@]}" | sort -n | awk -v label="$1" -v runs="$RUNS" -v pending="$pending" \
    '{a[NR]=$1} END {printf "%-5s runs=%d p50=%dms p95=%dms max=%dms pending-sessions-after=%d\n", label, runs, a[int(NR*0.5)+0], a[int(NR*0.95)+0], a[NR], pending}'
}

UP=$(free_port); TOKEN=benchtoken
if LFG_HOME="$WORK/serve" "$LFG" serve --port "$UP" >/dev/null 2>&1 & PIDS+=($!); wait_up "$UP"; then
  echo "server: lfg serve on port $UP"
  TOKEN=$(cat "$WORK/serve/auth-token" 2>/dev/null || echo benchtoken)
else
  UP=$(free_port); stand_in "$UP" ok; wait_up "$UP"; echo "server: stand-in on port $UP"
fi
HUNG=$(free_port); stand_in "$HUNG" hang; wait_up "$HUNG" || true

echo "lfg hook latency, $LFG"
measure up "http://127.0.0.1:$UP"
measure down "http://127.0.0.1:1"
measure hung "http://127.0.0.1:$HUNG"
