#!/usr/bin/env bash
# Times `lfg diagnose` on a generated decision log of N lines (default 3,000,000) and prints lines/s and peak RSS.
# With a reference binary (e.g. an `lfg` built from an earlier commit), both run alternately, 3 times each,
# on the same log, and the ratio of their best lines/s is printed: a figure the machine's load cancels out of.
# Usage: bench/diagnose.sh [LINES] [REFERENCE_LFG]
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-3000000}
reference=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log="$work/liveactivity.log"

python3 - "$lines" "$log" <<'PY'
import random, sys
count, path = int(sys.argv[1]), sys.argv[2]
random.seed(7)
devices = ["phone-a", "phone-b", "ipad"]
ts = 1764400000.0
written = 0
with open(path, "w") as out:
    while written < count:
        ts += random.choice((2.0, 2.0, 4.0))
        d = random.choice(devices)
        roll = random.random()
        if roll < 0.02:
            out.write('{"action":"start","deviceId":"%s","event":"decide","needsInput":0,"rows":["s1:working"],"tokens":3,"ts":%.3f,"working":1}\n' % (d, ts))
            for t in ("aaaa1111", "bbbb2222", "cccc3333"):
                out.write('{"action":"start","deviceId":"%s","env":"sandbox","event":"send","ms":41,"status":200,"token":"%s","ts":%.3f}\n' % (d, t, ts))
            written += 4
            if random.random() < 0.5:
                out.write('{"deviceId":"%s","env":"sandbox","event":"adopted","token":"dddd4444","ts":%.3f}\n' % (d, ts + random.uniform(1, 120)))
                written += 1
        elif roll < 0.025:
            out.write('{"deviceId":"%s","event":"client-ended","ts":%.3f}\n' % (d, ts)); written += 1
        elif roll < 0.027:
            out.write('{"deviceId":"%s","env":"sandbox","event":"token-pruned","kind":"update","status":410,"token":"eeee5555","ts":%.3f}\n' % (d, ts)); written += 1
        else:
            status = 200 if random.random() < 0.97 else 410
            reason = '' if status == 200 else ',"reason":"Unregistered"'
            out.write('{"action":"update","deviceId":"%s","event":"decide","needsInput":1,"rows":["s1:needsInput","s2:working","s3:working"],"tokens":1,"ts":%.3f,"working":2}\n' % (d, ts))
            out.write('{"action":"update","apnsId":"5B2E0A4C-0000-4000-8000-000000000000","deviceId":"%s","env":"sandbox","event":"send","ms":%d,"status":%d%s,"token":"ffff6666","ts":%.3f}\n' % (d, random.randint(20, 90), status, reason, ts))
            written += 2
            if status != 200:
                out.write('{"accepted":0,"action":"update","attempted":1,"deviceId":"%s","event":"none-accepted","ts":%.3f}\n' % (d, ts)); written += 1
    out.write('{"ts": %.3f, "event": "dec' % ts)  # a truncated last line, as a crash mid-write leaves
PY

command -v /usr/bin/time >/dev/null || { echo "bench: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
swift build -c release --product lfg >/dev/null
bin=$(swift build -c release --show-bin-path)/lfg
actual=$(wc -l <"$log")
size=$(du -h "$log" | cut -f1)
run() {  # run BINARY NAME: appends "seconds rss_kb" to $work/NAME.times
  /usr/bin/time -f "%e %M" -o "$work/time" "$1" diagnose --log "$log" --json >"$work/$2.json"
  cat "$work/time" >>"$work/$2.times"
}
if [ -n "$reference" ]; then
  for _ in 1 2 3; do run "$bin" this; run "$reference" reference; done
else
  run "$bin" this
fi
python3 - "$actual" "$size" "$work" "$reference" <<'PY'
import json, os, sys
lines, size, work, reference = int(sys.argv[1]) + 1, sys.argv[2], sys.argv[3], sys.argv[4]
def best(name):
    runs = [tuple(map(float, l.split())) for l in open(os.path.join(work, name + ".times")) if l.strip()]
    return min(r[0] for r in runs), max(r[1] for r in runs)
report = json.load(open(os.path.join(work, "this.json")))
seconds, rss = best("this")
print(f"lfg diagnose: {lines} lines ({size}) in {seconds:.2f} s = {lines / max(seconds, 0.001):,.0f} lines/s, "
      f"peak RSS {rss / 1024:.1f} MiB, {report['entries']} entries, {report['skippedCount']} skipped, "
      f"{len(report['devices'])} devices")
if reference:
    ref_seconds, ref_rss = best("reference")
    print(f"reference {reference}: {lines / max(ref_seconds, 0.001):,.0f} lines/s, peak RSS {ref_rss / 1024:.1f} MiB; "
          f"this / reference throughput = {ref_seconds / max(seconds, 0.001):.2f} (best of 3 each, alternating)")
PY
