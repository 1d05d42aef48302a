#!/usr/bin/env bash
# API ingest throughput against a reference in the same run: wrk against nginx answering a static
# body, then against `lfg serve` (SQLite store, fresh $LFG_HOME) for PUT /api/sessions/{sid}
# (16 sessions, round-robin) and GET /api/sessions; then the same against `lfg serve` on a throwaway
# PostgreSQL cluster (scripts/postgres-cluster.sh, with fsync ON: a real server's durability), when
# PostgreSQL is installed. Prints req/s of each, the ratio to nginx, the server's CPU time per request
# (user + system, from /proc) and the load average at the end.
# Usage: bench/ingest.sh [seconds per run, default 10]   (builds lfg in release first; needs wrk, nginx)
# LFG_BIN=path measures that lfg binary instead (e.g. an older build for a before/after figure).
# LFG_INGEST_POSTGRES=0 skips PostgreSQL. On a shared machine run it as `nice -n -10 bench/ingest.sh`.
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
nginx_pid=$!

# Waits until `url` answers 2xx (with the given extra curl arguments); fails the run naming `what` and
# showing `log` otherwise. Every server is measured only once it answers: wrk against a port nobody listens
# on yet counts connection errors, and its figure would be garbage (a ratio of 45).
wait_until_answers() {
  local what="$1" pid="$2" log="$3" url="$4"; shift 4
  for _ in $(seq 100); do
    curl -fsS -o /dev/null "$@" "$url" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "ingest.sh: $what did not answer on $url; its log:" >&2; cat "$log" >&2 || true; exit 1
}
wait_until_answers nginx "$nginx_pid" "$work/nginx/error.log" "http://127.0.0.1:$nginx_port/"

token="bench-$(date +%s)"
# Starts `lfg serve` on a fresh home (and the given extra environment, e.g. LFG_DATABASE_URL) and waits
# until it answers; sets lfg_port.
start_lfg() {
  local home; home="$(mktemp -d "$work/home.XXXX")"
  lfg_port="$(free_port)"
  env LFG_HOME="$home" LFG_AUTH_TOKEN="$token" "$@" "$lfg" serve --port "$lfg_port" >"$home.log" 2>&1 & pids+=($!)
  lfg_pid=$!
  wait_until_answers "lfg serve" "$lfg_pid" "$home.log" "http://127.0.0.1:$lfg_port/api/sessions" \
    -H "Authorization: Bearer $token"
}

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

# Fails the run unless `value` is a positive decimal number (`what` names the figure).
require_figure() {
  local what="$1" value="$2"
  if ! [[ "$value" =~ ^([0-9]+\.?[0-9]*|\.[0-9]+)$ ]] || [ "$(echo "$value > 0" | bc -l)" != 1 ]; then
    echo "ingest.sh: $what is '$value', not a positive number; no figure printed" >&2; exit 1
  fi
}
# wrk's "Requests/sec:" figure and its request count. Non-2xx answers and socket errors (connect, read,
# write, timeout) fail the run: they are failures, not throughput.
rate() {
  local out; out="$(wrk -t"$threads" -c"$connections" -d"${seconds}s" "$@")"
  if grep -q "Non-2xx" <<<"$out"; then echo "ingest.sh: non-2xx answers: $(grep Non-2xx <<<"$out")" >&2; exit 1; fi
  if grep -q "Socket errors" <<<"$out"; then echo "ingest.sh: $(grep "Socket errors" <<<"$out") ($*)" >&2; exit 1; fi
  local per_second count
  per_second="$(awk '/Requests\/sec/ {print $2}' <<<"$out")"
  count="$(awk '/requests in/ {print $1}' <<<"$out")"
  require_figure "wrk's Requests/sec ($*)" "$per_second"
  require_figure "wrk's request count ($*)" "$count"
  printf '%s %s\n' "$per_second" "$count"
}
# The lfg server's CPU time so far (user + system, clock ticks).
cpu_ticks() { awk '{print $14 + $15}' "/proc/$lfg_pid/stat"; }
# One wrk run against lfg_port; prints "req/s ratio server-CPU-microseconds-per-request". CPU per request
# is steadier than req/s on a shared machine: it counts the server's own work, not its share of the cores.
lfg_rate() {
  local before after out
  before="$(cpu_ticks)"
  out="$(rate "$@")"
  after="$(cpu_ticks)"
  local ratio cpu
  ratio="$(echo "${out% *} / $reference" | bc -l)"
  cpu="$(echo "($after - $before) * 1000000 / $(getconf CLK_TCK) / ${out#* }" | bc -l)"
  require_figure "the ratio to nginx" "$ratio"
  require_figure "the server CPU per request" "$cpu"
  echo "${out% *} $ratio $cpu"
}
# PUT then GET against the lfg serve on lfg_port, stopped afterwards; prints both lines with their ratios.
measure() {
  local store="$1" put get commits
  put="$(lfg_rate -s "$work/put.lua" "http://127.0.0.1:$lfg_port")"
  commits="$(group_commits)"
  get="$(lfg_rate -s "$work/get.lua" "http://127.0.0.1:$lfg_port/api/sessions")"
  kill "$lfg_pid"; wait "$lfg_pid" 2>/dev/null || true
  printf '%-10s PUT /api/sessions/{sid} %9.0f req/s  ratio %.3f  server CPU %4.0f us/request\n' "$store" $put
  printf '%-10s   group commits: %s\n' "$store" "$commits"
  printf '%-10s GET /api/sessions       %9.0f req/s  ratio %.3f  server CPU %4.0f us/request\n' "$store" $get
}
# The store's commits so far (GET /metrics, lfg_store_commit_seconds): PUTs per commit (the group size;
# the wait_until_answers GET commits nothing) and the mean time a commit takes, as the caller waits for it.
group_commits() {
  curl -fsS -H "Authorization: Bearer $token" "http://127.0.0.1:$lfg_port/metrics" | awk -v puts="$(echo "${put%% *} * $seconds" | bc -l)" '
    /^lfg_store_commit_seconds_count/ { count = $2 } /^lfg_store_commit_seconds_sum/ { sum = $2 }
    END { if (count > 0) printf "%d, %.0f PUTs each, %.0f us each", count, puts / count, sum * 1e6 / count }'
}
printf 'wrk -t%s -c%s, %ss each, loopback\n' "$threads" "$connections" "$seconds"
reference="$(rate "http://127.0.0.1:$nginx_port/")"
reference="${reference% *}"
printf 'nginx static                       %9.0f req/s\n' "$reference"
start_lfg
measure SQLite
if [ "${LFG_INGEST_POSTGRES:-1}" = 1 ]; then
  source scripts/postgres-cluster.sh
  LFG_POSTGRES_FSYNC=on lfg_postgres_start >/dev/null
  trap 'cleanup; lfg_postgres_stop' EXIT  # the cluster's own trap replaced ours: both, servers first
  start_lfg LFG_DATABASE_URL="$LFG_TEST_DATABASE_URL"
  measure PostgreSQL
fi
printf 'load average at the end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
