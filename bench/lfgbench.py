"""What the Python benches share (bench/instances.py, bench/accounts-idle.py): one bearer token, free
loopback ports, the APNs settings that point `lfg serve` at the stand-in, and a process's figures."""
import os
import socket
import subprocess

TOKEN = "bench-token-0123456789abcdef"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_apns_key(directory):
    """A fresh P-256 key for provider tokens (the stand-in accepts any); returns its path."""
    key = os.path.join(directory, "key.p8")
    subprocess.run(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key],
                   check=True, capture_output=True)
    return key


def serve_environment(key, mock_port, database_url, schema):
    """The environment of an `lfg serve` on `database_url` (`schema`) that pushes to the stand-in on `mock_port`."""
    apns = "http://127.0.0.1:%d" % mock_port
    return dict(
        os.environ, LFG_AUTH_TOKEN=TOKEN, LFG_DATABASE_URL=database_url, LFG_DATABASE_SCHEMA=schema,
        LFG_LIVE_ACTIVITIES="1", LFG_APNS_KEY_FILE=key, LFG_APNS_KEY_ID="KEY1234567", LFG_APNS_TEAM_ID="TEAM123456",
        LFG_APNS_BUNDLE_ID="com.example.lfg", LFG_APNS_SANDBOX_URL=apns, LFG_APNS_PRODUCTION_URL=apns)


def metric_values(text):
    """Prometheus text (`GET /metrics`) as {series: value}."""
    values = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            values[name] = float(value)
    return values


def cpu_seconds(pid):
    """User + system CPU time the process has used so far."""
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")
