#!/usr/bin/env bash
# The dashboard's must-show: starts `lfg serve --demo` (or, without demo mode, a plain server fed by curl),
# loads the page in headless Chromium, saves docs/dashboard.png, and checks that every card the page draws
# (counts, rows, N More) equals GET /api/push/live-activity/state.
# Usage: scripts/dashboard-check.sh [SCREENSHOT]   (needs chromium and python3; see scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
screenshot=${1:-docs/dashboard.png}
mkdir -p "$(dirname "$screenshot")"

swift build --product lfg >/dev/null
lfg="$(swift build --show-bin-path)/lfg"
home=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
token=$(python3 -c 'import secrets; print(secrets.token_hex(32))')
base="http://127.0.0.1:$port"
server_pid=
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$home"
}
trap cleanup EXIT

start_server() {
  LFG_HOME="$home" LFG_AUTH_TOKEN="$token" "$lfg" serve --port "$port" "$@" >"$home/serve.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do
    if curl -fsS "$base/healthz" >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$server_pid" 2>/dev/null; then server_pid=; return 1; fi
    sleep 0.2
  done
  return 1
}

api() { curl -fsS -H "Authorization: Bearer $token" -H 'Content-Type: application/json' "$@" >/dev/null; }

if start_server --demo; then
  echo "dashboard-check: lfg serve --demo is up on $base"
  wait_for_card=90
  settle=20  # about 20 s into the demo's cycle: five sessions, two asking, a card adopted and updated
  answer_required=
else
  # No demo mode: a real server pushing to the local APNs stand-in with a throwaway key, fed over the API.
  echo "dashboard-check: no demo mode ($(tail -n 1 "$home/serve.log")); using lfg apns-mock and curl"
  openssl ecparam -name prime256v1 -genkey -noout 2>/dev/null | openssl pkcs8 -topk8 -nocrypt -out "$home/key.p8"
  mock_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$lfg" apns-mock --port "$mock_port" --key-file "$home/key.p8" --bundle-id dev.lfg.check --quiet >"$home/mock.log" 2>&1 &
  mock_pid=$!
  trap 'kill "$mock_pid" 2>/dev/null || true; cleanup' EXIT
  export LFG_LIVE_ACTIVITIES=1 LFG_PUSH_PORT="$port" LFG_TICK_MS=500 LFG_APNS_KEY_FILE="$home/key.p8" \
    LFG_APNS_KEY_ID=CHECK12345 LFG_APNS_TEAM_ID=TEAM123456 LFG_APNS_BUNDLE_ID=dev.lfg.check \
    LFG_APNS_SANDBOX_URL="http://127.0.0.1:$mock_port" LFG_APNS_PRODUCTION_URL="http://127.0.0.1:$mock_port"
  start_server || { echo "dashboard-check: lfg serve did not start:" >&2; cat "$home/serve.log" >&2; exit 1; }
  api -X PUT "$base/api/hosts/studio" -d '{"ttlSeconds": 3600}'
  api -X PUT "$base/api/hosts/pi" -d '{"ttlSeconds": 1}'
  session() { api -X PUT "$base/api/sessions/$1" -d "$2"; }
  session q1 '{"title": "Which database should the cache use?", "host": "studio", "cwd": "/src/lfg", "prompt": {"kind": "question", "text": "Postgres or SQLite?"}}'
  session q2 '{"title": "Allow rm -rf build/?", "host": "studio", "cwd": "/src/lfg", "prompt": {"id": "check-q2", "kind": "permission", "text": "rm -rf build/"}}'
  session w1 '{"title": "Read SessionListView.swift", "host": "studio", "cwd": "/src/lfg/ios", "busy": true, "step": "Read"}'
  session w2 '{"title": "Port the watcher to Swift", "host": "studio", "cwd": "/src/lfg", "busy": true, "step": "Edit"}'
  session w3 '{"title": "Write the release notes", "host": "studio", "cwd": "/src/notes", "busy": true}'
  session b1 '{"title": "Waiting on CI", "host": "studio", "cwd": "/src/lfg", "blocked": true}'
  session i1 '{"title": "Refactor done", "host": "studio", "cwd": "/src/site"}'
  session u1 '{"title": "Nightly build", "host": "pi", "cwd": "/home/pi/build", "busy": true}'
  hex() { python3 -c 'import secrets; print(secrets.token_hex(32))'; }
  api -X PUT "$base/api/devices/iphone" -d "{\"env\": \"sandbox\", \"pushToStartToken\": \"$(hex)\"}"
  api -X PUT "$base/api/devices/ipad" -d '{"env": "sandbox"}'
  api -X POST "$base/api/push/live-activity/update-token" -d "{\"deviceId\": \"ipad\", \"env\": \"sandbox\", \"token\": \"$(hex)\"}"
  api -X POST "$base/api/push/live-activity/start-token" -d "{\"deviceId\": \"ipad\", \"env\": \"sandbox\", \"token\": \"$(hex)\"}"
  sleep 3  # a few ticks: the iphone's card is push-started, the ipad's adopted and updated, host pi goes down
  session w3 '{"title": "Write the release notes", "host": "studio", "cwd": "/src/notes", "busy": false}'
  wait_for_card=30
  settle=0
  answer_required=--answer-required
fi

login_url=$(grep -Eo 'http://[^ ]*/login\?code=[0-9a-zA-Z]+' "$home/serve.log" | head -n 1 || true)
login_url=${login_url/http:\/\/[^\/]*\//$base/}
python3 scripts/dashboard_check.py "$base" "$token" "$screenshot" --wait-for-card "$wait_for_card" --settle "$settle" \
  ${answer_required:+"$answer_required"} ${login_url:+--login-url "$login_url"}
