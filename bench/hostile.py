#!/usr/bin/env python3
"""Attacks a real `lfg serve` on loopback, one attack per row, and prints the table README shows.

Each row: a fresh server on one home (kept across rows), the attack, /healthz latency sampled from
127.0.0.1 during it, RSS before/after, the time SIGTERM takes, and whether every acknowledged write
survives a restart. Bounded in count and time (about two minutes); loopback only.
"""
import concurrent.futures, http.client, json, os, random, signal, socket, subprocess, sys, tempfile, threading, time

LFG = sys.argv[1]
TOKEN = "bench-hostile-token"
HOME = tempfile.mkdtemp(prefix="lfg-hostile-")
SEED = int(os.environ.get("SEED", "1"))
FUZZ_COUNT = int(os.environ.get("FUZZ_COUNT", "3000"))
random.seed(SEED)


def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port


PORT = free_port()
ENV = dict(os.environ, LFG_HOME=HOME, LFG_AUTH_TOKEN=TOKEN, LFG_TICK_MS="200")


def start():
    proc = subprocess.Popen([LFG, "serve", "--port", str(PORT)], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            if request("GET", "/healthz", auth=False)[0] == 200: return proc
        except OSError: time.sleep(0.05)
    raise SystemExit("lfg serve did not start")


def request(method, path, body=None, auth=True, timeout=5, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=timeout)
    all_headers = dict(headers or {})
    if auth: all_headers["Authorization"] = "Bearer " + TOKEN
    if body is not None: all_headers["Content-Type"] = "application/json"
    conn.request(method, path, body=body, headers=all_headers)
    response = conn.getresponse(); data = response.read(); conn.close()
    return response.status, data


def rss_mb(proc):
    with open(f"/proc/{proc.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS"): return int(line.split()[1]) / 1024
    return 0


class HealthProbe(threading.Thread):
    """GET /healthz from 127.0.0.1 every 20 ms. An answer counts with its time (a 503 too, counted
    apart as refused); no answer within 1 s counts as 1 s."""
    def __init__(self):
        super().__init__(daemon=True); self.samples = []; self.refused = 0; self.resets = 0; self.stop = False
    def run(self):
        while not self.stop:
            began = time.perf_counter()
            try:
                status = request("GET", "/healthz", auth=False, timeout=1)[0]
                self.refused += status != 200
                self.samples.append((time.perf_counter() - began) * 1000)
            except socket.timeout: self.samples.append(1000.0)
            except OSError:  # a reset instead of an answer (the 503 over a cap must arrive, not a reset)
                self.resets += 1; self.samples.append((time.perf_counter() - began) * 1000)
            time.sleep(0.02)
    def p99(self):
        values = sorted(self.samples)
        text = f"{values[min(len(values) - 1, int(len(values) * 0.99))]:.1f}" if values else "n/a"
        return (text + (f" ({self.refused} refused)" if self.refused else "")
                + (f" ({self.resets} reset)" if self.resets else ""))


ACKED = []


def acked_write(tag, index, title_bytes=40):
    sid = f"{tag}-{index}"
    try: status, _ = request("PUT", f"/api/sessions/{sid}", json.dumps({"title": "t" * title_bytes, "busy": True}))
    except OSError: return 0  # refused or reset: not acknowledged, so not counted
    if status == 200: ACKED.append(sid)
    return status


def connect(source="127.0.0.1", rcvbuf=None):
    s = socket.socket()
    if rcvbuf: s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((source, 0)); s.connect(("127.0.0.1", PORT)); return s


EVENTS = ("GET /api/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN + "\r\n\r\n").encode()


def abandoned_streams():
    for _ in range(200):
        s = connect(); s.sendall(EVENTS); s.close()
    for i in range(100): acked_write("abandoned", i, 30_000)
    return 200


def slow_readers():
    sockets = [connect(rcvbuf=4096) for _ in range(20)]
    for s in sockets: s.sendall(EVENTS)
    for i in range(400): acked_write("slow", i, 60_000)
    for s in sockets: s.close()
    return 20


HELD = []  # sockets an attack leaves open through SIGTERM (closed once the server has stopped)


def stalled_reader():
    # An answer larger than the kernel's socket buffers take (they grow to 4 MB): the list of 12,000
    # sessions more (each listed in about 380 bytes), still being written when SIGTERM comes to a reader
    # that stopped reading. Last among the attacks, so the others run on the usual few hundred sessions.
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        list(pool.map(lambda i: acked_write("stalled", i, 200), range(12_000)))
    s = connect(rcvbuf=4096)
    s.sendall(("GET /api/sessions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + TOKEN + "\r\n\r\n").encode())
    HELD.append(s)
    return 1


def slowloris():
    sockets = []
    for i in range(2000):
        try: sockets.append(connect(source=f"127.0.0.{2 + i // 500}"))
        except OSError: pass
    for _ in range(12):  # one byte per socket per second, for 12 s: past the 10 s header deadline
        for s in sockets:
            try: s.send(b"G")
            except OSError: pass
        acked_write("loris", len(ACKED))
        time.sleep(1)
    for s in sockets: s.close()
    return len(sockets)


def one_client_flood():
    sockets, refused = [], 0
    for _ in range(2000):
        try: sockets.append(connect())
        except OSError: refused += 1
    fast_503 = 0
    for s in sockets[-200:]:
        s.settimeout(0.5)
        try: fast_503 += s.recv(64).startswith(b"HTTP/1.1 503")
        except OSError: pass
    for i in range(20): acked_write("flood", i)
    for s in sockets: s.close()
    global FLOOD_NOTE; FLOOD_NOTE = (f"{fast_503}/200 of the last got a 503 at once; /healthz from the same "
                               "address is over that client's cap too: refused at once, no hang")
    return len(sockets)


def event_stream_flood():
    sockets = []
    for i in range(1010):
        try:
            s = connect(source=f"127.0.0.{2 + i // 505}"); s.sendall(EVENTS); sockets.append(s)
        except OSError: pass
    for i in range(20): acked_write("streams", i)
    for s in sockets: s.close()
    return len(sockets)


VALID = [
    ("PUT", "/api/sessions/f1", {"title": "x", "busy": True, "prompt": {"kind": "question", "text": "?"}}),
    ("PUT", "/api/devices/d1", {"env": "sandbox", "platform": "ios", "hiddenDirs": ["a"]}),
    ("POST", "/api/push/live-activity/start-token", {"token": "ab" * 32, "env": "sandbox", "deviceId": "d1"}),
    ("PUT", "/api/hosts/h1", {"ttlSeconds": 60}),
]


def mutate(data):
    data = bytearray(data)
    for _ in range(random.randint(1, 4)):
        choice = random.random()
        if choice < 0.3 and data: data[random.randrange(len(data))] = random.randrange(256)
        elif choice < 0.5 and data: del data[random.randrange(len(data))]
        elif choice < 0.7: data.insert(random.randrange(len(data) + 1), random.choice(b'{}[],:"\\0e-+.\x00\xff'))
        elif choice < 0.85: data = data + data[: random.randrange(len(data) + 1)]
        else: data = bytearray(b"[" * random.randint(1, 2000)) + data
    return bytes(data)


def malformed_bodies():
    bad_shape = 0
    for i in range(FUZZ_COUNT):
        method, path, body = random.choice(VALID)
        try: status, data = request(method, path, mutate(json.dumps(body).encode()))
        except OSError: bad_shape += 1; continue
        if status >= 500: bad_shape += 1
        elif status != 200:
            try: bad_shape += "error" not in json.loads(data)
            except ValueError: bad_shape += 1
        if i % 100 == 0: acked_write("fuzz", i)
    global FUZZ_NOTE; FUZZ_NOTE = f"{bad_shape} answers off the error shape or 5xx"
    return FUZZ_COUNT


def split_brain():
    second = subprocess.run([LFG, "serve", "--port", str(free_port())], env=ENV, capture_output=True, timeout=20)
    global SPLIT_NOTE; SPLIT_NOTE = f"second server exit {second.returncode}"
    for i in range(20): acked_write("split", i)
    return 1


FLOOD_NOTE = FUZZ_NOTE = SPLIT_NOTE = ""
ATTACKS = [
    ("abandoned /api/events x200 + 100 PUTs of 30 KB", abandoned_streams, lambda: ""),
    ("20 never-reading streams + 400 PUTs of 60 KB", slow_readers, lambda: ""),
    ("2,000 slowloris sockets (4 clients), 12 s", slowloris, lambda: ""),
    ("2,000 sockets from one client", one_client_flood, lambda: FLOOD_NOTE),
    ("1,010 event-stream subscribers (2 clients)", event_stream_flood, lambda: ""),
    (f"{FUZZ_COUNT} mutated JSON bodies (seed {SEED})", malformed_bodies, lambda: FUZZ_NOTE),
    ("second lfg serve on the same home", split_brain, lambda: SPLIT_NOTE),
    ("12,000 PUTs, then a reader stalled in their 4.6 MB list at SIGTERM", stalled_reader, lambda: ""),
]

rows = []
for name, attack, note in ATTACKS:
    proc = start()
    before = rss_mb(proc)
    probe = HealthProbe(); probe.start()
    tries = attack()
    time.sleep(0.5)
    probe.stop = True; probe.join()
    alive = proc.poll() is None and request("GET", "/healthz", auth=False)[0] == 200
    after = rss_mb(proc)
    began = time.perf_counter(); proc.send_signal(signal.SIGTERM)
    try: proc.wait(timeout=10); stop_s = time.perf_counter() - began
    except subprocess.TimeoutExpired: proc.kill(); proc.wait(); stop_s = float("inf")
    for s in HELD: s.close()
    HELD.clear()
    check = start()
    _, data = request("GET", "/api/sessions")
    present = {s["sid"] for s in json.loads(data)["sessions"]}
    lost = sum(1 for sid in ACKED if sid not in present)
    check.send_signal(signal.SIGTERM); check.wait(timeout=10)
    rows.append((name, tries, "yes" if alive else "NO", f"{before:.0f} / {after:.0f}", probe.p99(),
                 f"{stop_s:.2f}", lost, note()))

print("| attack | tries | server alive | RSS MB before / after | /healthz p99 ms during | SIGTERM s | lost writes | note |")
print("|---|---|---|---|---|---|---|---|")
for row in rows: print("| " + " | ".join(str(c) for c in row) + " |")
print(f"\n{len(ACKED)} acknowledged writes in all; home {HOME}")
