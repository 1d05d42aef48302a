#!/usr/bin/env bash
# The "Must show" figures of issue 11 from `lfg simulate --json`: per scenario and iOS version, the mean
# and standard error over seeds 1..N of correctFraction, honestFraction, lyingSeconds, maxVisibleCards,
# start/end loops and pushes (plus the long scenarios' own figures); iOS 17's lying seconds against the
# same runs with the new rules switched off; and the LFG_STALE_AFTER_S curve (pushes spent vs lying
# seconds) the server's default is chosen from. Prints Markdown tables (the README quotes them).
#
# Usage: bench/simulate-figures.sh [--seeds N] [--curve-seeds N]
#   LFG_BIN=path/to/lfg to skip the release build.
set -euo pipefail
cd "$(dirname "$0")/.."

SEEDS=10
CURVE_SEEDS=10
while [ $# -gt 0 ]; do
  case "$1" in
    --seeds) SEEDS=$2; shift 2 ;;
    --curve-seeds) CURVE_SEEDS=$2; shift 2 ;;
    *) echo "usage: bench/simulate-figures.sh [--seeds N] [--curve-seeds N]" >&2; exit 2 ;;
  esac
done

if [ -z "${LFG_BIN:-}" ]; then
  swift build -c release --product lfg >/dev/null
  LFG_BIN=.build/release/lfg
fi

LFG_BIN="$LFG_BIN" SEEDS="$SEEDS" CURVE_SEEDS="$CURVE_SEEDS" python3 - <<'PY'
import json, math, os, subprocess

BIN, SEEDS, CURVE_SEEDS = os.environ["LFG_BIN"], int(os.environ["SEEDS"]), int(os.environ["CURVE_SEEDS"])
SCENARIOS = ["idle-phone", "day", "multi-device", "eight-hours", "flapping"]
NEW_RULES = ["broadcast-channels", "stale-date", "renewal", "token-forgetting", "priority-budget"]

def run(scenario, seed, ios, without=(), stale=None):
    args = [BIN, "simulate", "--json", "--scenario", scenario, "--seed", str(seed), "--ios", str(ios)]
    for name in without: args += ["--without", name]
    if stale is not None: args += ["--stale-after", str(stale)]
    return json.loads(subprocess.check_output(args))["scenarios"][0]["metrics"]

def stats(values):
    n = len(values)
    mean = sum(values) / n
    if n < 2: return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)

def fmt(values, digits):
    mean, se = stats(values)
    return f"{mean:.{digits}f} ± {se:.{digits}f}"

runs = {(s, ios): [run(s, seed, ios) for seed in range(1, SEEDS + 1)] for ios in (18, 17) for s in SCENARIOS}

print(f"### Figures per scenario (mean ± standard error over seeds 1-{SEEDS}, every guard on)\n")
print("| scenario | iOS | correctFraction | honestFraction | lyingSeconds | maxVisibleCards | loops | pushes |")
print("|---|---|---|---|---|---|---|---|")
for ios in (18, 17):
    for s in SCENARIOS:
        r = runs[(s, ios)]
        print(f"| {s} | {ios} | {fmt([m['correctFraction'] for m in r], 4)} | {fmt([m['honestFraction'] for m in r], 4)} "
              f"| {fmt([m['lyingSeconds'] for m in r], 0)} | {fmt([m['maxVisibleCards'] for m in r], 2)} "
              f"| {fmt([m['startEndLoops'] for m in r], 2)} | {fmt([m['pushes'] for m in r], 0)} |")

print(f"\n### Multi-card moments (iOS 18): seconds with more than one card, and the longest stretch\n")
print("| scenario | multiCardSeconds | worst seed |")
print("|---|---|---|")
for s in SCENARIOS:
    values = [m["multiCardSeconds"] for m in runs[(s, 18)]]
    print(f"| {s} | {fmt(values, 1)} | {max(values):.1f} |")

print(f"\n### iOS 17: lying seconds with the new rules and without them (--without each of {', '.join(NEW_RULES)})\n")
print("| scenario | lying, new rules | lying, rules off | reduction | honestFraction |")
print("|---|---|---|---|---|")
for s in ("idle-phone", "day"):
    on = [m["lyingSeconds"] for m in runs[(s, 17)]]
    off = [run(s, seed, 17, NEW_RULES)["lyingSeconds"] for seed in range(1, SEEDS + 1)]
    reduction = 1 - stats(on)[0] / stats(off)[0] if stats(off)[0] > 0 else 0
    print(f"| {s} | {fmt(on, 0)} | {fmt(off, 0)} | {reduction * 100:.1f} % | {fmt([m['honestFraction'] for m in runs[(s, 17)]], 4)} |")

print(f"\n### eight-hours and flapping (iOS 18 and 17)\n")
print("| scenario | iOS | checkpoints correct (9 h, 12 h, 24 h) | longest no-card stretch while active, s | needs-you late (> 1 s) | worst needs-you delay, s | priority-10 pushes, worst hour |")
print("|---|---|---|---|---|---|---|")
for s in ("eight-hours", "flapping"):
    for ios in (18, 17):
        r = runs[(s, ios)]
        checks = [c for m in r for c in m["checkpoints"]]
        correct = sum(1 for c in checks if c.endswith("correct"))
        cp = f"{correct} of {len(checks)}" if checks else "-"
        print(f"| {s} | {ios} | {cp} | {fmt([m['longestCardlessActiveSeconds'] for m in r], 1)} "
              f"| {fmt([m['needsYouLate'] for m in r], 2)} of {stats([m['needsYouTransitions'] for m in r])[0]:.0f} "
              f"| {max(m['needsYouWorstSeconds'] for m in r):.2f} | {fmt([m['priority10WorstHour'] for m in r], 1)} (max {max(m['priority10WorstHour'] for m in r)}) |")

print(f"\n### LFG_STALE_AFTER_S: pushes spent vs lying seconds (idle-phone and day, seeds 1-{CURVE_SEEDS})\n")
print("| stale after, s | iOS | idle-phone pushes | idle-phone lying s | day pushes | day lying s |")
print("|---|---|---|---|---|---|")
for ios in (17, 18):
    for stale in (300, 600, 900, 1800, 3600):
        cells = []
        for s in ("idle-phone", "day"):
            r = [run(s, seed, ios, stale=stale) for seed in range(1, CURVE_SEEDS + 1)]
            cells += [fmt([m["pushes"] for m in r], 0), fmt([m["lyingSeconds"] for m in r], 0)]
        print(f"| {stale} | {ios} | " + " | ".join(cells) + " |")
PY
