#!/usr/bin/env bash
# The test command the README names: builds everything, checks the Apple-only files parse, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
bash scripts/check-apple-sources.sh
# The PostgreSQL store's tests need a real server: a throwaway cluster under a temp dir, stopped and
# deleted when this script exits. Missing binaries fail the run (LFG_SKIP_POSTGRES=1 opts out, loudly);
# with the cluster up, LFG_REQUIRE_POSTGRES=1 makes any PostgreSQL test that cannot connect fail.
if [ -z "${LFG_TEST_DATABASE_URL:-}" ]; then
  if [ "${LFG_SKIP_POSTGRES:-0}" = 1 ]; then
    echo "test.sh: LFG_SKIP_POSTGRES=1: the PostgreSQL store is NOT tested in this run" >&2
  else
    source scripts/postgres-cluster.sh
    lfg_postgres_start
  fi
fi
# Serial: many suites run real loopback servers and child processes, and on a 2-core machine parallel
# suites starve each other's tasks for seconds (a 2-thread cooperative pool). Serial, the whole run
# takes about 10 s and no test's outcome depends on what else happens to be running.
# Every test await on something external is bounded (AsyncTesting.bounded / Inbox), so a hang is a
# named failing test. The overall limit below is only a last net for a hang outside any bounded await:
# the run is killed after 10 minutes (a normal one takes seconds) and FAILS, loudly. Nothing is retried.
status=0
timeout -k 10 600 swift test --skip-build --no-parallel "$@" || status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  echo "test.sh: FAILED: the test run hung for 10 minutes and was killed. Not retried: find the unbounded await" >&2
  echo "test.sh: (the last 'started' test above without a result is where it hung; see scripts/soak-tests.sh)" >&2
fi
exit "$status"
