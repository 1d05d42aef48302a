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
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time

from lfgbench import TOKEN, cpu_seconds, free_port, make_apns_key, metric_values, rss_mb, serve_environment


class Serve:
    def __init__(self, lfg, url):
        self.home = tempfile.mkdtemp(prefix="lfg-accounts-idle-")
        self.port = free_port()
        mock_port = free_port()
        self.mock = subprocess.Popen([lfg, "apns-mock", "--port", str(mock_port)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        key = make_apns_key(self.home)
        environment = dict(serve_environment(key, mock_port, url, "bench_accounts_idle"), LFG_HOME=self.home)
        self.log = open(os.path.join(self.home, "serve.log"), "w")
        self.process = subprocess.Popen([lfg, "serve", "--port", str(self.port)], env=environment,
                                        stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(400):
            try:
                if self.request("GET", "/healthz")[0] == 200:
                    return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("lfg serve did not answer; see " + self.log.name)

    def request(self, method, path, body=None, token=TOKEN):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, data

    def round_trips(self):
        metrics = metric_values(self.request("GET", "/metrics")[1].decode())
        return metrics.get("lfg_database_round_trips_total", float("nan"))

    def cpu_seconds(self):
        return cpu_seconds(self.process.pid)

    def rss_mb(self):
        return rss_mb(self.process.pid)

    def measure(self, window):
        time.sleep(2)  # whatever the last requests started settles first
        cpu, trips, started = self.cpu_seconds(), self.round_trips(), time.time()
        time.sleep(window)
        elapsed = time.time() - started
        return {"cpuShareOfOneCore": round((self.cpu_seconds() - cpu) / elapsed, 4),
                "databaseRoundTripsPerSecond": round((self.round_trips() - trips - 1) / elapsed, 1),
                "rssMB": round(self.rss_mb(), 1)}


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
    serve = Serve(lfg, url)
    results = {"accounts": args.accounts, "windowSeconds": args.window, "loadBefore": round(load, 1)}
    try:
        results["reference"] = serve.measure(args.window)
        print("  reference (no accounts): %s" % results["reference"], flush=True)
        started = time.time()
        tokens = []
        for index in range(args.accounts):
            status, data = serve.request("POST", "/api/accounts", {"name": "person-%05d" % index})
            if status != 200:
                raise SystemExit("POST /api/accounts answered %d: %s" % (status, data[:200]))
            tokens.append(json.loads(data)["token"])
        results["accountsMadeSeconds"] = round(time.time() - started, 1)
        results["empty"] = serve.measure(args.window)
        print("  %d empty accounts (made in %.1f s): %s" % (args.accounts, results["accountsMadeSeconds"], results["empty"]),
              flush=True)
        for index, token in enumerate(tokens):
            body = {"token": "%08x" % index + "cd" * 28, "env": "sandbox", "deviceId": "phone"}
            status, data = serve.request("POST", "/api/push/live-activity/update-token", body, token=token)
            if status != 200:
                raise SystemExit("update-token answered %d: %s" % (status, data[:200]))
        results["phones"] = serve.measure(args.window)
        print("  the same accounts with one phone each: %s" % results["phones"], flush=True)
    finally:
        serve.process.terminate()
        serve.process.wait(timeout=30)
        serve.mock.terminate()
        serve.mock.wait(timeout=30)
    results["loadAfter"] = round(os.getloadavg()[0], 1)
    print(json.dumps(results, sort_keys=True))


if __name__ == "__main__":
    main()
