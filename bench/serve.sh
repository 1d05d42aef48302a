#!/usr/bin/env bash
# The control plane's benchmark: (a) report -> push leaving latency on loopback, p50/p99;
# (b) the watcher's cost per tick with 10,000 devices and 50,000 sessions, and how it scales.
# Usage: bench/serve.sh [lfg bench serve options...]   (builds lfg in release first)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product lfg >/dev/null
exec .build/release/lfg bench serve "$@"
