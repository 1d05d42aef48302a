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
else
  echo "dashboard-check: no demo mode ($(tail -n 1 "$home/serve.log")); feeding a plain server with curl"
  start_server || { echo "dashboard-check: lfg serve did not start:" >&2; cat "$home/serve.log" >&2; exit 1; }
  api -X PUT "$base/api/hosts/studio" -d '{"ttlSeconds": 3600}'
  api -X PUT "$base/api/sessions/s1" -d '{"title": "Which database should the cache use?", "host": "studio", "cwd": "/src/lfg", "prompt": {"kind": "question", "text": "Postgres or SQLite?"}}'
  api -X PUT "$base/api/sessions/s2" -d '{"title": "Read SessionListView.swift", "host": "studio", "cwd": "/src/lfg/ios", "busy": true, "step": "Read"}'
  api -X PUT "$base/api/sessions/s3" -d '{"title": "Waiting on CI", "host": "studio", "blocked": true}'
  api -X PUT "$base/api/devices/phone" -d '{"env": "sandbox", "pushToStartToken": "a1b2c3d4e5f60718293a4b5c6d7e8f90"}'
  wait_for_card=3
fi

login_url=$(grep -Eo 'http://[^ ]*/login\?code=[0-9a-zA-Z]+' "$home/serve.log" | head -n 1 || true)
login_url=${login_url/http:\/\/[^\/]*\//$base/}
python3 scripts/dashboard_check.py "$base" "$token" "$screenshot" --wait-for-card "$wait_for_card" \
  ${login_url:+--login-url "$login_url"}
