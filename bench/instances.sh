#!/usr/bin/env bash
# Several lfg serve instances on one PostgreSQL database (issue 18): runs the three-instance test
# (Tests/ControlPlaneTests/SharedDatabaseTests: 3 processes, one APNs stand-in, 9 simulated phones,
# lease 1.5 s) RUNS times (default 5) against a throwaway cluster and prints, per run, how long after
# kill -9 the killed instance's cards were pushed again, and after SIGTERM the stopped one's; then
# min / median / max. The README's "Several instances on one database" figures come from this.
# Scaled down from the issue's bench (10,000 devices on 1 and 3 instances): this measures takeover and
# handover only, not report-to-push latency or round trips at scale.
# Usage: bench/instances.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
swift build --build-tests >/dev/null
source scripts/postgres-cluster.sh
lfg_postgres_start >/dev/null
kills=()
terms=()
for run in $(seq 1 "$runs"); do
  out=$(swift test --skip-build --no-parallel --filter SharedDatabaseTests 2>&1) || { echo "$out" | grep -E "✘" >&2; exit 1; }
  kill_s=$(echo "$out" | sed -n 's/.*cards pushed again \([0-9.]*\) seconds after kill -9.*/\1/p')
  term_s=$(echo "$out" | sed -n 's/.*cards pushed again \([0-9.]*\) seconds after SIGTERM.*/\1/p')
  echo "run $run: after kill -9 ${kill_s} s, after SIGTERM ${term_s} s"
  kills+=("$kill_s")
  terms+=("$term_s")
done
summary() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {printf "min %.2f s, median %.2f s, max %.2f s (n=%d)\n", a[1], a[int((NR+1)/2)], a[NR], NR}'; }
echo "kill -9 takeover: $(summary "${kills[@]}")"
echo "SIGTERM handover: $(summary "${terms[@]}")"
