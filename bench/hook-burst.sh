#!/usr/bin/env bash
# Many hook calls at once: per-call wall time (spawn to exit) and events lost, at 4, 10, 20, 50 and
# 100 hooks at once, against `lfg serve` on loopback with a fresh LFG_HOME for the hooks at every level.
# Usage: bench/hook-burst.sh [LFG_BINARY] [LEVELS...]   (default: .build/release/lfg; 4 10 20 50 100)
# The hook is what `lfg hooks install` writes: `lfg-hook` (the cheap start, beside LFG_BINARY).
# Two shapes per level: "own" (every event its own session, as issue 19's table) and "shared" (five
# events per session, so hooks of one session meet); two hosts: "host" (something listens on
# $LFG_HOME/host.sock: `lfg host` when this lfg has it, else a stand-in below that runs `lfg hooks drain`
# whenever it is rung, one at a time) and "none" (nobody listens: each hook hands its session to
# `lfg hook --deliver-session`). Each level sends max(100, 2 x level) events as back-to-back bursts.
# Lost = events whose report the server does not show after the bursts plus one `lfg hooks drain`.
set -euo pipefail
cd "$(dirname "$0")/.."
LFG=${1:-.build/release/lfg}
shift || true
LEVELS=${*:-4 10 20 50 100}
[ -x "$LFG" ] || { echo "no $LFG: swift build -c release first" >&2; exit 1; }
HOOK="$(dirname "$LFG")/lfg-hook"
[ -x "$HOOK" ] || { echo "no $HOOK: swift build -c release builds it beside lfg" >&2; exit 1; }
WORK=$(mktemp -d)
SERVE_PID=
cleanup() { [ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
mkdir -p "$WORK/serve"
LFG_HOME="$WORK/serve" "$LFG" serve --port "$PORT" >"$WORK/serve.log" 2>&1 &
SERVE_PID=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz" && break; sleep 0.05; done
TOKEN=$(cat "$WORK/serve/auth-token")
echo "hook bursts: $HOOK, lfg serve on 127.0.0.1:$PORT, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) at start"
printf '%-7s %-5s %-7s %7s %8s %8s %8s %11s %14s %12s %6s\n' shape host "at once" events p50 p99 max "floor p99" "cpu hook/floor" "after burst" lost

python3 - "$LFG" "$HOOK" "$PORT" "$TOKEN" "$WORK" $LEVELS <<'PY'
import json, os, socket, subprocess, sys, threading, time, urllib.request
lfg, hook, port, token, work = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
levels = [int(x) for x in sys.argv[6:]]
url = f"http://127.0.0.1:{port}"

def sessions():
    request = urllib.request.Request(url + "/api/sessions", headers={"Authorization": "Bearer " + token})
    return {s["sid"]: s for s in json.load(urllib.request.urlopen(request))["sessions"]}

def spawn_all(commands, env, cpu):
    """Starts every (argv, stdin bytes) at once; returns each one's wall time (spawn to exit) in ms,
    and adds each one's CPU time (user + system, ms) to cpu."""
    running, times = {}, []
    for argv, data in commands:
        began = time.monotonic()
        process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        process.stdin.write(data); process.stdin.close()
        running[process.pid] = (process, began)
    while running:
        pid, _, usage = os.wait4(-1, 0)
        if pid in running:
            process, began = running.pop(pid)
            process.returncode = 0
            times.append((time.monotonic() - began) * 1000)
            cpu.append((usage.ru_utime + usage.ru_stime) * 1000)
    return times

def p99(times):
    times = sorted(times)
    return times[min(len(times) - 1, int(len(times) * 0.99))]

class DrainingHost:
    """Stands in for `lfg host` on the doorbell: binds $LFG_HOME/host.sock and, whenever rung, runs
    `lfg hooks drain` (one at a time; rings during a drain make one more)."""
    def __init__(self, home, env):
        self.path, self.env = os.path.join(home, "host.sock"), env
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.sock.settimeout(0.05)
        self.stopping = False
        self.thread = threading.Thread(target=self.loop)
        self.thread.start()

    def loop(self):
        while not self.stopping:
            try:
                self.sock.recv(2048)
            except socket.timeout:
                continue
            self.sock.setblocking(False)
            try:
                while True: self.sock.recv(2048)
            except BlockingIOError:
                pass
            self.sock.settimeout(0.05)
            subprocess.run([lfg, "hooks", "drain", "--timeout", "10"], env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self):
        self.stopping = True
        self.thread.join()
        self.sock.close()
        os.unlink(self.path)

def run_level(shape, mode, level):
    home = os.path.join(work, f"hooks-{shape}-{mode}-{level}")
    os.makedirs(home)
    env = dict(os.environ, LFG_HOME=home, LFG_URL=url, LFG_AUTH_TOKEN=token)
    host = DrainingHost(home, env) if mode == "host" else None
    total = max(100, 2 * level)
    # own: every event its own session. shared: every burst sends five events to each of level/5
    # sessions, the same sessions burst after burst, so a session's final state must come from its last burst.
    last_prompts = {}  # sid -> the prompts of its latest burst
    times = []
    floor, cpu, floor_cpu = [], [], []
    for burst, start in enumerate(range(0, total, level)):
        batch = []
        for index in range(start, min(start + level, total)):
            sid = f"{shape}-{mode}-{level}-{index}" if shape == "own" else f"{shape}-{mode}-{level}-{(index - start) // 5}"
            prompt = f"prompt {index}"
            payload = json.dumps({"session_id": sid, "cwd": "/work/bench", "hook_event_name": "UserPromptSubmit",
                                  "prompt": prompt, "session_title": prompt})
            batch.append(([hook], payload.encode()))
            if last_prompts.get(sid, (None, None))[0] != burst:
                last_prompts[sid] = (burst, set())
            last_prompts[sid][1].add(prompt)
        times += spawn_all(batch, env, cpu)
        floor += spawn_all([([lfg, "--help"], b"")] * len(batch), env, floor_cpu)
    def missing():
        # Events whose session does not (yet) show its latest burst: one event each in "own",
        # five per stale session in "shared".
        listed = sessions()
        stale = [sid for sid, (_, prompts) in last_prompts.items() if listed.get(sid, {}).get("title") not in prompts]
        return len(stale) * (1 if shape == "own" else 5)
    if host:
        host.stop()
    after_burst = total - missing()
    subprocess.run([lfg, "hooks", "drain", "--timeout", "30"], env=env, stdout=subprocess.DEVNULL)
    lost = missing()
    times.sort()
    pick = lambda q: times[min(len(times) - 1, int(len(times) * q))]
    print(f"{shape:<7} {mode:<5} {level:<7} {total:>7} {pick(0.5):>6.0f}ms {pick(0.99):>6.0f}ms {times[-1]:>6.0f}ms {p99(floor):>9.0f}ms {sum(cpu) / len(cpu):>5.1f}/{sum(floor_cpu) / len(floor_cpu):<4.1f}ms {after_burst:>6}/{total:<4} {lost:>6}",
          flush=True)

for shape in ("own", "shared"):
    for mode in ("host", "none"):
        for level in levels:
            run_level(shape, mode, level)
print(f"load average at the end: {open('/proc/loadavg').read().split()[:3]}")
PY
