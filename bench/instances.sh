#!/usr/bin/env bash
# Scale-out bench (issue 18): the same fleet (default 10,000 devices, 50,000 sessions) on 1 and on 3
# lfg serve instances sharing one throwaway PostgreSQL cluster, pushing to the APNs stand-in
# (lfg apns-mock): report -> push leaving p50/p99, database round trips per tick, resident memory per
# instance, and the takeover after kill -9 of one of the three. See bench/instances.py for what is
# measured and how. Builds lfg in release first (LFG_BIN=path measures another binary).
# The README's scale-out figures come from this script. About 4-6 minutes on the shared 2-core machine.
# Usage: bench/instances.sh [--devices N] [--sessions N] [--probes N] [--rate R] [--window S] [--accounts N]
# (--accounts 2000: many people, 2,000 accounts of 5 phones and 25 sessions; it ends with a table for the
# README and the verdict vs the targets: report -> push p99 < 100 ms, takeover < 5 s)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${LFG_BIN:-}" ]; then
  swift build -c release --product lfg >/dev/null
  export LFG_BIN=.build/release/lfg
fi
source scripts/postgres-cluster.sh
lfg_postgres_start >/dev/null
export LFG_POSTGRES_BINDIR
# The cluster's EXIT trap stops PostgreSQL whatever the bench's exit status.
python3 bench/instances.py "$@"
