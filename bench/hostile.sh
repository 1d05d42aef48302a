#!/usr/bin/env bash
# Attacks a real `lfg serve` on loopback, as an outsider would (issue #13), and prints the table the
# README shows: attack | tries | server alive | RSS before/after | /healthz p99 during | SIGTERM time |
# lost acknowledged writes. Bounded: about two minutes, loopback only (127.0.0.1 and, as other
# clients, 127.0.0.2-5). Also runs FUZZ_COUNT (default 3000) mutated JSON bodies against the server;
# the CI fuzz test (DecoderFuzzTests) runs 400 per decoder and seed.
# Usage: bench/hostile.sh [path/to/lfg]   (default: builds the debug lfg; SEED=n FUZZ_COUNT=n to vary)
set -euo pipefail
cd "$(dirname "$0")/.."
lfg="${1:-}"
if [ -z "$lfg" ]; then
  swift build --product lfg >/dev/null
  lfg=.build/debug/lfg
fi
exec python3 bench/hostile.py "$lfg"
