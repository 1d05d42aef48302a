#!/usr/bin/env bash
# Answering from the phone: (a) answer POST -> a real `lfg hook` process prints its decision, p50/p99 over
# 1,000 questions on loopback (reference in the same run: the POST's own round trip); (b) the server's
# resident memory and threads with 1,000 long polls waiting at once.
# Usage: bench/answers.sh [lfg bench answers options...]   (builds lfg in release first; about a minute)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product lfg >/dev/null
exec .build/release/lfg bench answers "$@"
