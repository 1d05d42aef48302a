#!/usr/bin/env bash
# APNs provider throughput: `lfg bench apns` next to the ceiling h2load measures against the same endpoint
# in the same run, at 100 and 500 in flight, on one connection and on a pool of K (--pool, default 4; h2load
# then opens K clients with C/K streams each, the same total in flight); prints a table with the ratio (target >= 0.50).
# Endpoints: the local stand-in (`lfg apns-mock`, always) and nginx answering like APNs (when nginx and its
# echo module are installed: scripts/setup.sh installs them as optional packages).
#
# Usage: bench/apns.sh [--count N] [--runs R] [--tls] [--server mock|nginx|all] [--pool K]
#   LFG_BIN=path/to/lfg to skip the release build. Needs h2load (nghttp2-client, installed by scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=20000
RUNS=3
TLS=0
SERVER=all
POOL=4
while [ $# -gt 0 ]; do
  case "$1" in
    --count) COUNT=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --tls) TLS=1; shift ;;
    --server) SERVER=$2; shift 2 ;;
    --pool) POOL=$2; shift 2 ;;
    *) echo "usage: bench/apns.sh [--count N] [--runs R] [--tls] [--server mock|nginx|all] [--pool K]" >&2; exit 2 ;;
  esac
done
ECHO_MODULE=/usr/lib/nginx/modules/ngx_http_echo_module.so
HAS_NGINX=0
command -v nginx >/dev/null && [ -f "$ECHO_MODULE" ] && HAS_NGINX=1
if [ "$SERVER" = nginx ] && [ "$HAS_NGINX" = 0 ]; then
  echo "bench/apns.sh: nginx or its echo module is missing; run scripts/setup.sh (optional packages)" >&2; exit 1
fi
command -v h2load >/dev/null || { echo "bench/apns.sh: h2load is missing; run scripts/setup.sh (nghttp2-client)" >&2; exit 1; }

if [ -z "${LFG_BIN:-}" ]; then
  swift build -c release --product lfg >/dev/null
  LFG_BIN=.build/release/lfg
fi

WORK=$(mktemp -d)
MOCK_PID=
NGINX_PID=
cleanup() {
  [ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null
  [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

# The same ~300-byte Live Activity update body and APNs headers lfg bench apns sends.
cat >"$WORK/body.json" <<'JSON'
{"aps":{"content-state":{"more":0,"needsInput":1,"rows":[{"since":1764399000,"sid":"s-1","state":"needsInput","title":"Fix the flaky build"},{"since":1764399100,"sid":"s-2","state":"working","title":"Write the APNs tests"},{"since":1764399200,"sid":"s-3","state":"working","title":"Refactor the store"}],"updatedAt":1764400000,"working":2},"event":"update","relevance-score":100,"timestamp":1764400000}}
JSON
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
JWT="$(printf '{"alg":"ES256","kid":"BENCHKEY01"}' | b64url).$(printf '{"iss":"BENCHTEAM1","iat":%s}' "$(date +%s)" | b64url).$(head -c 64 /dev/zero | b64url)"
TOKEN=$(printf '%08x' 7 | sed 's/.*/&&&&&&&&/')
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# measure NAME URL [CA_FILE]: one table row per in-flight level and pool size.
measure() {
  local name=$1 url=$2 ca=()
  [ -n "${3:-}" ] && ca=(--ca-file "$3")
  for K in $(printf '%s\n' 1 "$POOL" | sort -un); do
  for C in 100 500; do
    local ours=() ceiling=() conns=()
    for _ in $(seq "$RUNS"); do
      line=$(env -u LFG_APNS_KEY_FILE "$LFG_BIN" bench apns --url "$url" --count "$COUNT" --concurrency "$C" \
        --connections "$K" "${ca[@]}")
      ours+=("$(sed -n 's/.*"pushesPerSecond":\([0-9.]*\).*/\1/p' <<<"$line")")
      conns+=("$(sed -n 's/.*"connections":\([0-9]*\).*/\1/p' <<<"$line")")
      errors=$(sed -n 's/.*"errors":\([0-9]*\).*/\1/p' <<<"$line")
      [ "$errors" = 0 ] || echo "bench/apns.sh: lfg bench apns reported $errors errors: $line" >&2
      h2=$(h2load -n "$COUNT" -c "$K" -m "$((C / K))" -d "$WORK/body.json" -H "authorization: bearer $JWT" \
        -H 'apns-push-type: liveactivity' -H 'apns-topic: dev.lfg.bench.push-type.liveactivity' -H 'apns-priority: 10' \
        "$url/3/device/$TOKEN" 2>&1)
      ceiling+=("$(sed -n 's/.*finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' <<<"$h2")")
    done
    o=$(printf '%s\n' "${ours[@]}" | median)
    h=$(printf '%s\n' "${ceiling[@]}" | median)
    k=$(printf '%s\n' "${conns[@]}" | sort -u | paste -sd, -)
    printf '%-10s %-5s %-9s %14.0f %14.0f %7.2f %12s\n' "$name" "$K" "$C" "$o" "$h" \
      "$(awk -v o="$o" -v h="$h" 'BEGIN {print (h > 0 ? o / h : 0)}')" "$k"
  done
  done
}

free_port() {
  local port
  for _ in $(seq 50); do
    port=$((20000 + RANDOM % 40000))
    (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
  done
  echo "bench/apns.sh: no free port found" >&2; exit 1
}

printf '%-10s %-5s %-9s %14s %14s %7s %12s\n' "endpoint" "pool" "in flight" "lfg pushes/s" "h2load req/s" "ratio" "connections"
SCHEME=http
[ "$TLS" = 1 ] && SCHEME=https

if [ "$SERVER" != nginx ]; then
  # The stand-in runs without a key (it accepts any well-formed ES256 token) and without topic checks,
  # so the same request is valid from both clients.
  MOCK_ARGS=(apns-mock --port 0 --quiet)
  [ "$TLS" = 1 ] && MOCK_ARGS+=(--tls --ca-out "$WORK/ca.pem")
  env -u LFG_APNS_KEY_FILE -u LFG_APNS_BUNDLE_ID "$LFG_BIN" "${MOCK_ARGS[@]}" >"$WORK/mock.out" 2>&1 &
  MOCK_PID=$!
  for _ in $(seq 50); do grep -q listening "$WORK/mock.out" 2>/dev/null && break; sleep 0.1; done
  URL=$(sed -n 's/.*"listening":"\([^"]*\)".*/\1/p' "$WORK/mock.out")
  [ -n "$URL" ] || { echo "bench/apns.sh: the stand-in did not start: $(cat "$WORK/mock.out")" >&2; exit 1; }
  measure apns-mock "$URL" "$([ "$TLS" = 1 ] && echo "$WORK/ca.pem")"
  kill "$MOCK_PID"; MOCK_PID=
fi

if [ "$SERVER" != mock ] && [ "$HAS_NGINX" = 1 ]; then
  # nginx answering like APNs (reference platform-notes 3.5): read the body, then 200 + apns-id, headers only.
  PORT=$(free_port)
  mkdir -p "$WORK/nginx/tmp"
  LISTEN="listen 127.0.0.1:$PORT http2;"
  if [ "$TLS" = 1 ]; then
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
      -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" -keyout "$WORK/nginx/key.pem" -out "$WORK/nginx/cert.pem" 2>/dev/null
    LISTEN="listen 127.0.0.1:$PORT ssl http2; ssl_certificate $WORK/nginx/cert.pem; ssl_certificate_key $WORK/nginx/key.pem;"
  fi
  cat >"$WORK/nginx/nginx.conf" <<CONF
daemon off;
master_process off;
load_module $ECHO_MODULE;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $WORK/nginx/tmp/body; proxy_temp_path $WORK/nginx/tmp/proxy;
    fastcgi_temp_path $WORK/nginx/tmp/fastcgi; uwsgi_temp_path $WORK/nginx/tmp/uwsgi; scgi_temp_path $WORK/nginx/tmp/scgi;
    keepalive_requests 10000000;
    http2_max_concurrent_streams 1000;
    server {
        $LISTEN
        default_type application/json;
        location /3/device/ { echo_read_request_body; echo_exec @accepted; }
        location @accepted { add_header apns-id \$request_id always; return 200; }
    }
}
CONF
  nginx -p "$WORK/nginx/" -c "$WORK/nginx/nginx.conf" &
  NGINX_PID=$!
  for _ in $(seq 50); do (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.1; done
  measure nginx "$SCHEME://127.0.0.1:$PORT" "$([ "$TLS" = 1 ] && echo "$WORK/nginx/cert.pem")"
  kill "$NGINX_PID"; NGINX_PID=
fi
echo "(medians of $RUNS runs of $COUNT pushes each; pool = connections per endpoint, h2load with as many clients;"
echo " client and server share this machine's cores)"
