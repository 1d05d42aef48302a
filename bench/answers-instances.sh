#!/usr/bin/env bash
# Answering across instances: two control planes on one PostgreSQL database (a throwaway cluster, fsync on),
# real `lfg hook` processes waiting on one of them; (a) each answer POSTed to the same instance, then
# (a') each answer POSTed to the other instance, which reaches the waiting hook through LISTEN/NOTIFY.
# Usage: bench/answers-instances.sh [lfg bench answers options...]   (builds lfg in release first)
# Defaults: 300 questions, 8 at a time, 100 waiters for (b) (the SQLite figure of (b) is bench/answers.sh's).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product lfg >/dev/null
export LFG_POSTGRES_FSYNC=on
source scripts/postgres-cluster.sh
lfg_postgres_start >&2
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
.build/release/lfg bench answers --questions 300 --waiters 100 "$@" --database-url "$LFG_TEST_DATABASE_URL"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
