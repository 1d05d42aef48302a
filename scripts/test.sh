#!/usr/bin/env bash
# The test command the README names: builds everything, checks the Apple-only files parse, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
bash scripts/check-apple-sources.sh
# Serial: many suites run real loopback servers and child processes, and on a 2-core machine parallel
# suites starve each other's tasks for seconds (a 2-thread cooperative pool). Serial, the whole run
# takes about 10 s and no test's outcome depends on what else happens to be running.
swift test --skip-build --no-parallel "$@"
