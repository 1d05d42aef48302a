#!/usr/bin/env python3
"""Idle accounts (issue 18): one `lfg serve` on a shared PostgreSQL database (LFG_TEST_DATABASE_URL, started
by bench/accounts-idle.sh), measured over WINDOW seconds with no requests at all, three times in one run:
  reference  no accounts (the owner alone, no device);
  empty      ACCOUNTS accounts made through POST /api/accounts, nothing in them;
  phones     the same accounts, each with one phone (an update token registered with its account token).
Pushing is on, to `lfg apns-mock` (so every tick is a real one), with the default tick (LFG_TICK_MS).
Per phase: CPU of the process as a share of one core (utime + stime from /proc), resident memory, and
database round trips per second (lfg_database_round_trips_total on GET /metrics, which counts the lease
rounds of every account). Prints one line per phase and a final JSON object.
"""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time

from instances import Instance, Mock
from lfgbench import cpu_seconds, make_apns_key, metric_values, rss_mb, serve_environment


def round_trips(instance):
    return instance.metrics().get("lfg_database_round_trips_total", float("nan"))


def measure(instance, window):
    time.sleep(2)  # whatever the last requests started settles first
    pid = instance.process.pid
    cpu, trips, started = cpu_seconds(pid), round_trips(instance), time.time()
    time.sleep(window)
    elapsed = time.time() - started
    return {"cpuShareOfOneCore": round((cpu_seconds(pid) - cpu) / elapsed, 4),
            "databaseRoundTripsPerSecond": round((round_trips(instance) - trips - 1) / elapsed, 1),
            "rssMB": round(rss_mb(pid), 1)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--accounts", type=int, default=2000)
    parser.add_argument("--window", type=float, default=30)
    args = parser.parse_args()
    url = os.environ.get("LFG_TEST_DATABASE_URL") or sys.exit("LFG_TEST_DATABASE_URL unset: run bench/accounts-idle.sh")
    lfg = os.environ.get("LFG_BIN", ".build/release/lfg")
    load = os.getloadavg()[0]
    print("bench/accounts-idle: %d accounts, %g s windows; load average %.1f on %d cores before"
          % (args.accounts, args.window, load, os.cpu_count()), flush=True)
    results = {"accounts": args.accounts, "windowSeconds": args.window, "loadBefore": round(load, 1)}
    work = tempfile.mkdtemp(prefix="lfg-accounts-idle-")
    mock = Mock(lfg)
    serve = None
    try:
        environment = serve_environment(make_apns_key(work), mock.port, url, "bench_accounts_idle")
        serve = Instance(lfg, environment, work, 0)
        results["reference"] = measure(serve, args.window)
        print("  reference (no accounts): %s" % results["reference"], flush=True)
        started = time.time()
        tokens = []
        for index in range(args.accounts):
            status, data = serve.request("POST", "/api/accounts", {"name": "person-%05d" % index})
            if status != 200:
                raise SystemExit("POST /api/accounts answered %d: %s" % (status, data[:200]))
            tokens.append(json.loads(data)["token"])
        results["accountsMadeSeconds"] = round(time.time() - started, 1)
        results["empty"] = measure(serve, args.window)
        print("  %d empty accounts (made in %.1f s): %s" % (args.accounts, results["accountsMadeSeconds"], results["empty"]),
              flush=True)
        for index, token in enumerate(tokens):
            body = {"token": "%08x" % index + "cd" * 28, "env": "sandbox", "deviceId": "phone"}
            status, data = serve.request("POST", "/api/push/live-activity/update-token", body, token=token)
            if status != 200:
                raise SystemExit("update-token answered %d: %s" % (status, data[:200]))
        results["phones"] = measure(serve, args.window)
        print("  the same accounts with one phone each: %s" % results["phones"], flush=True)
    finally:
        if serve is not None:
            serve.stop()
        mock.stop()
        shutil.rmtree(work, ignore_errors=True)
    results["loadAfter"] = round(os.getloadavg()[0], 1)
    print(json.dumps(results, sort_keys=True))


if __name__ == "__main__":
    main()
