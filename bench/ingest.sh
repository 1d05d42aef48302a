#!/usr/bin/env bash
# API ingest throughput against a reference in the same run: wrk against nginx answering a static
# body, then against `lfg serve` (SQLite store, fresh $LFG_HOME) for PUT /api/sessions/{sid}
# (16 sessions, round-robin) and GET /api/sessions. Prints req/s of each and the ratio to nginx.
# Usage: bench/ingest.sh [seconds per run, default 10]   (builds lfg in release first; needs wrk, nginx)
# LFG_BIN=path measures that lfg binary instead (e.g. an older build for a before/after figure).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
threads=2 connections=64
for tool in wrk nginx; do
  command -v "$tool" >/dev/null || { echo "ingest.sh: $tool is missing (scripts/setup.sh installs it)" >&2; exit 1; }
done
if [ -z "${LFG_BIN:-}" ]; then swift build -c release --product lfg >/dev/null; fi
lfg="${LFG_BIN:-.build/release/lfg}"
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

nginx_port="$(free_port)"
mkdir -p "$work/nginx"
cat > "$work/nginx/nginx.conf" <<CONF
daemon off; worker_processes 1; pid $work/nginx/nginx.pid; error_log $work/nginx/error.log;
events { worker_connections 1024; }
http { access_log off;
  client_body_temp_path $work/nginx; proxy_temp_path $work/nginx; fastcgi_temp_path $work/nginx;
  uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
  server { listen 127.0.0.1:$nginx_port;
    location / { default_type application/json; return 200 '{"ok":true}'; } } }
CONF
nginx -c "$work/nginx/nginx.conf" -p "$work/nginx" & pids+=($!)

lfg_port="$(free_port)"
token="bench-$(date +%s)"
mkdir -p "$work/home"
LFG_HOME="$work/home" LFG_AUTH_TOKEN="$token" "$lfg" serve --port "$lfg_port" >"$work/serve.log" 2>&1 & pids+=($!)
for _ in $(seq 100); do
  curl -fsS -o /dev/null -H "Authorization: Bearer $token" "http://127.0.0.1:$lfg_port/api/sessions" 2>/dev/null && break
  sleep 0.1
done

cat > "$work/put.lua" <<LUA
local n = 0
wrk.method = "PUT"
wrk.headers["Authorization"] = "Bearer $token"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"title": "Port the watcher to Swift", "host": "bench", "cwd": "/src/lfg", "busy": true, "step": "Edit"}'
request = function()
  n = n + 1
  return wrk.format(nil, "/api/sessions/bench-" .. (n % 16))
end
LUA
cat > "$work/get.lua" <<LUA
wrk.headers["Authorization"] = "Bearer $token"
LUA

# wrk's "Requests/sec:" line; non-2xx answers are counted as failures, not throughput.
rate() {
  local out; out="$(wrk -t"$threads" -c"$connections" -d"${seconds}s" "$@")"
  if grep -q "Non-2xx" <<<"$out"; then echo "ingest.sh: non-2xx answers: $(grep Non-2xx <<<"$out")" >&2; exit 1; fi
  awk '/Requests\/sec/ {print $2}' <<<"$out"
}
reference="$(rate "http://127.0.0.1:$nginx_port/")"
put="$(rate -s "$work/put.lua" "http://127.0.0.1:$lfg_port")"
get="$(rate -s "$work/get.lua" "http://127.0.0.1:$lfg_port/api/sessions")"
printf 'wrk -t%s -c%s, %ss each, loopback\n' "$threads" "$connections" "$seconds"
printf 'nginx static           %10.0f req/s\n' "$reference"
printf 'PUT /api/sessions/{sid} %9.0f req/s  ratio %.3f\n' "$put" "$(echo "$put / $reference" | bc -l)"
printf 'GET /api/sessions      %10.0f req/s  ratio %.3f\n' "$get" "$(echo "$get / $reference" | bc -l)"
