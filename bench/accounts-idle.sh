#!/usr/bin/env bash
# Idle accounts on a shared PostgreSQL database (issue 18: many people, few phones each): what an
# `lfg serve` instance spends on accounts where nothing happens. One instance on a throwaway PostgreSQL
# cluster; CPU (share of one core), resident memory and database round trips per second over WINDOW
# seconds, three times in the same run: with no accounts (the reference), with ACCOUNTS accounts that
# have nothing at all, and with the same accounts each holding one phone (a registered update token; no
# session, so its card has nothing to show). See bench/accounts-idle.py. The README quotes this script.
# Usage: bench/accounts-idle.sh [--accounts N] [--window S]   (LFG_BIN=path measures another binary)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${LFG_BIN:-}" ]; then
  swift build -c release --product lfg >/dev/null
  export LFG_BIN=.build/release/lfg
fi
source scripts/postgres-cluster.sh
lfg_postgres_start >/dev/null
# The cluster's EXIT trap stops PostgreSQL whatever the bench's exit status.
python3 bench/accounts-idle.py "$@"
