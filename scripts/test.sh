#!/usr/bin/env bash
# The test command the README names: builds everything, checks the Apple-only files parse, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
bash scripts/check-apple-sources.sh
swift test --skip-build "$@"
