#!/usr/bin/env bash
# `lfg host` idle: resident memory and CPU of the resident process (lfg-host, after `lfg host` execs it)
# over DURATION seconds of heartbeats against `lfg serve` on loopback, with no hook activity.
# Usage: bench/host-idle.sh [DURATION_SECONDS] [LFG_BINARY]   (default: 60 s, .build/release/lfg)
# The README figure is one 600 s run. References in the same run: `sleep` (the smallest process there is)
# and `lfg serve` (a Foundation process of this package, idle) for memory; the CPU bound is 0.1 % of a core.
# The server is http:// on loopback, so `lfg host` runs lfg-host (plain-socket heartbeat, fully static in
# release builds: no shared library at all), not lfg-host-tls (libcurl, for https://).
# RSS counts every page the process touched in full, its binary's included; PSS divides shared pages among
# the processes that map them (two lfg-host processes running the same binary halve it); private is what
# only this process holds. Clean pages of the binary count as private when nothing else maps them.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-60}
LFG=${2:-.build/release/lfg}
[ -x "$LFG" ] || { echo "no $LFG: swift build -c release first" >&2; exit 1; }
[ -x "$(dirname "$LFG")/lfg-host" ] || { echo "no $(dirname "$LFG")/lfg-host: swift build -c release builds it" >&2; exit 1; }
WORK=$(mktemp -d)
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
export LFG_HOME="$WORK/home" LFG_URL="http://127.0.0.1:$PORT" LFG_HOST=bench-host
mkdir -p "$LFG_HOME"
"$LFG" serve --port "$PORT" >"$WORK/serve.log" 2>&1 &
SERVE=$!; PIDS+=("$SERVE")
for _ in $(seq 200); do curl -s -o /dev/null "$LFG_URL/healthz" && break; sleep 0.05; done
export LFG_AUTH_TOKEN=$(cat "$LFG_HOME/auth-token")
"$LFG" host >"$WORK/host.log" 2>&1 &
HOST=$!; PIDS+=("$HOST")
sleep $(( DURATION + 120 )) &
SLEEP=$!; PIDS+=("$SLEEP")
sleep 3  # let lfg host exec lfg-host and send its first heartbeat; the sampled window starts after

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }  # utime + stime, clock ticks
kb() { awk -v key="$2:" '$1 == key {print $2}' "/proc/$1/$3"; }
HZ=$(getconf CLK_TCK)
[ "$(cat /proc/$HOST/comm)" = "lfg-host" ] || { echo "lfg host did not exec lfg-host: $(cat "$WORK/host.log")" >&2; exit 1; }
START_TICKS=$(ticks "$HOST"); START=$(date +%s.%N)
PEAK=0
END=$(( $(date +%s) + DURATION ))
while [ "$(date +%s)" -lt "$END" ]; do
  RSS=$(kb "$HOST" VmRSS status); [ "$RSS" -gt "$PEAK" ] && PEAK=$RSS
  sleep 5
done
END_TICKS=$(ticks "$HOST"); ELAPSED=$(echo "$(date +%s.%N) - $START" | bc)

row() {  # name pid
  printf '%-22s %8s %8s %8s\n' "$1" "$(kb "$2" VmRSS status)" "$(kb "$2" Pss smaps_rollup)" \
    "$(( $(kb "$2" Private_Clean smaps_rollup) + $(kb "$2" Private_Dirty smaps_rollup) ))"
}
echo "lfg host idle: $LFG, ${DURATION} s sampled, heartbeat every 20 s to lfg serve on loopback; $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
printf '%-22s %8s %8s %8s\n' process "RSS kB" "PSS kB" "private kB"
row "lfg-host (lfg host)" "$HOST"
row "sleep (floor)" "$SLEEP"
row "lfg serve (Foundation)" "$SERVE"
CPU=$(echo "scale=6; ($END_TICKS - $START_TICKS) * 100 / ($HZ * $ELAPSED)" | bc)
echo "lfg-host peak RSS ${PEAK} kB; CPU $(( END_TICKS - START_TICKS )) ticks of 1/${HZ} s in ${ELAPSED%.*} s = ${CPU} % of one core (bound 0.1 %)"
echo "lfg host log:"; sed 's/^/  /' "$WORK/host.log" | head -5
