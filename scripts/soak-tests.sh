#!/usr/bin/env bash
# Runs the whole test suite many times in a row, some runs under extra CPU load, and counts hangs and
# failures: the check that a rare hang is gone, not retried away. Builds once, then reruns the tests only.
# Usage: scripts/soak-tests.sh [runs (30)] [runs under load (10)] [per-run limit in seconds (300)]
# Each run's output is kept in $SOAK_DIR (default: a fresh temporary folder) for a failure's post-mortem.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
loaded=${2:-10}
limit=${3:-300}
dir=${SOAK_DIR:-$(mktemp -d -t lfg-soak-XXXXXX)}
mkdir -p "$dir"
swift build --build-tests >"$dir/build.txt" 2>&1 || { echo "soak: the build failed; see $dir/build.txt" >&2; exit 1; }

load_pids=()
start_load() {
  # One busy loop per core, each bounded by the per-run limit so nothing outlives the run.
  local cores
  cores=$(nproc)
  for _ in $(seq 1 "$cores"); do
    timeout "$limit" sh -c 'yes > /dev/null' &
    load_pids+=("$!")
  done
}
stop_load() {
  for pid in "${load_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${load_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  load_pids=()
}
trap stop_load EXIT

# The same throwaway PostgreSQL test.sh starts, so the PostgreSQL store suite is soaked too.
if [ -z "${LFG_TEST_DATABASE_URL:-}" ]; then
  source scripts/postgres-cluster.sh
  lfg_postgres_start
  trap 'stop_load; lfg_postgres_stop' EXIT   # lfg_postgres_start's own trap would replace stop_load's
fi

passed=0 failed=0 hung=0
for run in $(seq 1 "$runs"); do
  label=quiet
  if [ "$run" -le "$loaded" ]; then label=loaded; start_load; fi
  status=0
  started=$(date +%s)
  timeout -k 10 "$limit" swift test --skip-build --no-parallel >"$dir/run-$run.txt" 2>&1 || status=$?
  seconds=$(( $(date +%s) - started ))
  stop_load
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1)); verdict=passed
  elif [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    hung=$((hung + 1)); verdict="HUNG (killed after ${limit} s)"
  else
    failed=$((failed + 1)); verdict="FAILED (status $status)"
  fi
  echo "soak: run $run/$runs ($label): $verdict in ${seconds} s"
done
echo "soak: $runs runs ($loaded under load): $passed passed, $failed failed, $hung hung; logs in $dir"
[ "$failed" -eq 0 ] && [ "$hung" -eq 0 ]
