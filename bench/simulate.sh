#!/usr/bin/env bash
# Lifecycle simulator speed: `lfg simulate --scenario all` (about 34 simulated hours, every guard on) and
# `--prove-guards` (each guard's scenario twice), release build, best of R runs. Target: all under 60 s.
# Also checks that two runs with one seed print the same bytes.
#
# Usage: bench/simulate.sh [--runs R] [--seed N]
#   LFG_BIN=path/to/lfg to skip the release build.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=3
SEED=1
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    *) echo "usage: bench/simulate.sh [--runs R] [--seed N]" >&2; exit 2 ;;
  esac
done

if [ -z "${LFG_BIN:-}" ]; then
  swift build -c release --product lfg >/dev/null
  LFG_BIN=.build/release/lfg
fi

best() {  # best wall-clock seconds of RUNS runs of "$@"
  local best=""
  for _ in $(seq "$RUNS"); do
    local start end seconds
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
    if [ -z "$best" ] || awk -v s="$seconds" -v b="$best" 'BEGIN { exit !(s < b) }'; then best=$seconds; fi
  done
  printf '%.3f' "$best"
}

all=$(best "$LFG_BIN" simulate --scenario all --seed "$SEED")
proofs=$(best "$LFG_BIN" simulate --prove-guards --seed "$SEED")
first=$("$LFG_BIN" simulate --scenario all --seed "$SEED" --json | sha256sum | cut -c1-16)
second=$("$LFG_BIN" simulate --scenario all --seed "$SEED" --json | sha256sum | cut -c1-16)
identical=$([ "$first" = "$second" ] && echo true || echo false)
echo "{\"scenarioAllSeconds\": $all, \"proveGuardsSeconds\": $proofs, \"targetSeconds\": 60, \"sameSeedSameBytes\": $identical}"
