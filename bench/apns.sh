#!/usr/bin/env bash
# APNs provider throughput: `lfg bench apns` against the local HTTP/2 stand-in (`lfg apns-mock`, h2c),
# next to the ceiling h2load measures against the same endpoint in the same run, at 100 and 500 in flight,
# one connection each. Prints a table and the ratio (target: >= 0.50).
#
# Usage: bench/apns.sh [--count N] [--runs R] [--tls]
#   LFG_BIN=path/to/lfg to skip the release build. Needs h2load (nghttp2-client, installed by scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=20000
RUNS=3
TLS=0
while [ $# -gt 0 ]; do
  case "$1" in
    --count) COUNT=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    --tls) TLS=1; shift ;;
    *) echo "usage: bench/apns.sh [--count N] [--runs R] [--tls]" >&2; exit 2 ;;
  esac
done
command -v h2load >/dev/null || { echo "bench/apns.sh: h2load is missing; run scripts/setup.sh (nghttp2-client)" >&2; exit 1; }

if [ -z "${LFG_BIN:-}" ]; then
  swift build -c release --product lfg >/dev/null
  LFG_BIN=.build/release/lfg
fi

WORK=$(mktemp -d)
MOCK_PID=
cleanup() { [ -n "$MOCK_PID" ] && kill "$MOCK_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

# The stand-in runs without a key (it accepts any well-formed ES256 token) and without topic checks,
# so the same request is valid from both clients.
MOCK_ARGS=(apns-mock --port 0 --quiet)
[ "$TLS" = 1 ] && MOCK_ARGS+=(--tls --ca-out "$WORK/ca.pem")
env -u LFG_APNS_KEY_FILE -u LFG_APNS_BUNDLE_ID "$LFG_BIN" "${MOCK_ARGS[@]}" >"$WORK/mock.out" 2>&1 &
MOCK_PID=$!
for _ in $(seq 50); do grep -q listening "$WORK/mock.out" 2>/dev/null && break; sleep 0.1; done
URL=$(sed -n 's/.*"listening":"\([^"]*\)".*/\1/p' "$WORK/mock.out")
[ -n "$URL" ] || { echo "bench/apns.sh: the stand-in did not start: $(cat "$WORK/mock.out")" >&2; exit 1; }

# The same ~300-byte Live Activity update body and APNs headers lfg bench apns sends.
cat >"$WORK/body.json" <<'JSON'
{"aps":{"content-state":{"more":0,"needsInput":1,"rows":[{"since":1764399000,"sid":"s-1","state":"needsInput","title":"Fix the flaky build"},{"since":1764399100,"sid":"s-2","state":"working","title":"Write the APNs tests"},{"since":1764399200,"sid":"s-3","state":"working","title":"Refactor the store"}],"updatedAt":1764400000,"working":2},"event":"update","relevance-score":100,"timestamp":1764400000}}
JSON
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
JWT="$(printf '{"alg":"ES256","kid":"BENCHKEY01"}' | b64url).$(printf '{"iss":"BENCHTEAM1","iat":%s}' "$(date +%s)" | b64url).$(head -c 64 /dev/zero | b64url)"
TOKEN=$(printf '%08x' 7 | sed 's/.*/&&&&&&&&/')
CA=()
[ "$TLS" = 1 ] && CA=(--ca-file "$WORK/ca.pem")

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '%-9s %16s %16s %7s %12s\n' "in flight" "lfg pushes/s" "h2load req/s" "ratio" "connections"
for C in 100 500; do
  ours=(); ceiling=(); conns=()
  for _ in $(seq "$RUNS"); do
    line=$(env -u LFG_APNS_KEY_FILE "$LFG_BIN" bench apns --url "$URL" --count "$COUNT" --concurrency "$C" "${CA[@]}")
    ours+=("$(sed -n 's/.*"pushesPerSecond":\([0-9.]*\).*/\1/p' <<<"$line")")
    conns+=("$(sed -n 's/.*"connections":\([0-9]*\).*/\1/p' <<<"$line")")
    errors=$(sed -n 's/.*"errors":\([0-9]*\).*/\1/p' <<<"$line")
    [ "$errors" = 0 ] || echo "bench/apns.sh: lfg bench apns reported $errors errors: $line" >&2
    h2=$(h2load -n "$COUNT" -c 1 -m "$C" -d "$WORK/body.json" -H "authorization: bearer $JWT" \
      -H 'apns-push-type: liveactivity' -H 'apns-topic: dev.lfg.bench.push-type.liveactivity' -H 'apns-priority: 10' \
      "$URL/3/device/$TOKEN" 2>&1)
    ceiling+=("$(sed -n 's/.*finished in [^,]*, \([0-9.]*\) req\/s.*/\1/p' <<<"$h2")")
  done
  o=$(printf '%s\n' "${ours[@]}" | median)
  h=$(printf '%s\n' "${ceiling[@]}" | median)
  k=$(printf '%s\n' "${conns[@]}" | sort -u | paste -sd, -)
  printf '%-9s %16.0f %16.0f %7.2f %12s\n' "$C" "$o" "$h" "$(awk -v o="$o" -v h="$h" 'BEGIN {print (h > 0 ? o / h : 0)}')" "$k"
done
echo "(medians of $RUNS runs of $COUNT pushes each against $URL; client and stand-in share this machine's cores)"
