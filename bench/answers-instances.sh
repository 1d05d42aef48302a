#!/usr/bin/env bash
# Answering across instances: two control planes on one PostgreSQL database (a throwaway cluster, fsync on),
# real `lfg hook` processes waiting on one of them; (a') answers alternate between that instance and the
# other one (whose answer reaches the waiting hook through LISTEN/NOTIFY), so both figures come from the
# same minutes; then (a) and (b) as bench/answers.sh, on PostgreSQL.
# Usage: bench/answers-instances.sh [lfg bench answers options...]   (builds lfg in release first)
# Defaults: 400 questions (200 answered on each instance), 8 at a time, 100 waiters for (b) (the SQLite figure of (b) is bench/answers.sh's).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product lfg >/dev/null
export LFG_POSTGRES_FSYNC=on
source scripts/postgres-cluster.sh
lfg_postgres_start >&2
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
# The defaults only when not given: an option given twice is refused.
defaults=()
[[ " $* " == *" --questions "* ]] || defaults+=(--questions 400)
[[ " $* " == *" --waiters "* ]] || defaults+=(--waiters 100)
.build/release/lfg bench answers "${defaults[@]}" "$@" --database-url "$LFG_TEST_DATABASE_URL"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
