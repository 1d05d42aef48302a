# Sourced by scripts/test.sh (and benches): a throwaway PostgreSQL cluster for one run.
#   lfg_postgres_start   initdb + pg_ctl start under a fresh temp dir; exports LFG_TEST_DATABASE_URL and
#                        LFG_REQUIRE_POSTGRES=1; stops and deletes the cluster when the shell exits (trap).
# Unix socket only (listen_addresses=''), in the cluster's own 0700 folder, so no other process on the
# machine can reach it and its port number (picked free among the sockets there) can never collide.
# initdb refuses to run as root: as root, the cluster runs as the unprivileged 'postgres' user (or 'nobody').
# Binaries: $LFG_POSTGRES_BIN, else Debian's /usr/lib/postgresql/<version>/bin, else initdb on PATH.

lfg_postgres_bin() {
  local candidate
  for candidate in "${LFG_POSTGRES_BIN:-}" /usr/lib/postgresql/*/bin; do
    if [ -n "$candidate" ] && [ -x "$candidate/initdb" ] && [ -x "$candidate/pg_ctl" ]; then echo "$candidate"; return 0; fi
  done
  if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return 0; fi
  return 1
}

lfg_postgres_stop() {
  if [ -n "${LFG_POSTGRES_DIR:-}" ] && [ -d "$LFG_POSTGRES_DIR" ]; then
    if [ -f "$LFG_POSTGRES_DIR/data/postmaster.pid" ]; then
      "${LFG_POSTGRES_AS[@]}" "$LFG_POSTGRES_BINDIR/pg_ctl" -D "$LFG_POSTGRES_DIR/data" -m immediate -w stop >/dev/null 2>&1 \
        || echo "postgres-cluster: pg_ctl stop failed; see $LFG_POSTGRES_DIR/server.log" >&2
    fi
    rm -rf "$LFG_POSTGRES_DIR"
  fi
}

lfg_postgres_start() {
  if ! LFG_POSTGRES_BINDIR=$(lfg_postgres_bin); then
    echo "postgres-cluster: no initdb/pg_ctl found (install 'postgresql': bash scripts/setup.sh), or run with LFG_SKIP_POSTGRES=1 to leave the PostgreSQL store untested" >&2
    return 1
  fi
  LFG_POSTGRES_DIR=$(mktemp -d "${TMPDIR:-/tmp}/lfg-postgres.XXXXXX")
  LFG_POSTGRES_AS=()
  if [ "$(id -u)" -eq 0 ]; then
    local user=postgres
    id "$user" >/dev/null 2>&1 || user=nobody
    chown "$user" "$LFG_POSTGRES_DIR"
    LFG_POSTGRES_AS=(runuser -u "$user" --)
  fi
  trap lfg_postgres_stop EXIT
  if ! "${LFG_POSTGRES_AS[@]}" "$LFG_POSTGRES_BINDIR/initdb" -D "$LFG_POSTGRES_DIR/data" -U lfg --auth=trust -E UTF8 \
      --no-locale >"$LFG_POSTGRES_DIR/initdb.log" 2>&1; then
    echo "postgres-cluster: initdb failed:" >&2; cat "$LFG_POSTGRES_DIR/initdb.log" >&2; return 1
  fi
  local port=$((20000 + RANDOM % 20000))
  # fsync off: a test cluster is thrown away; durability against a killed lfg process does not need it.
  # LFG_POSTGRES_FSYNC=on keeps it (bench/ingest.sh: commits cost what they cost on a real server).
  if ! "${LFG_POSTGRES_AS[@]}" "$LFG_POSTGRES_BINDIR/pg_ctl" -D "$LFG_POSTGRES_DIR/data" -l "$LFG_POSTGRES_DIR/server.log" \
      -w -t 60 -o "-c listen_addresses= -c unix_socket_directories=$LFG_POSTGRES_DIR -p $port -c fsync=${LFG_POSTGRES_FSYNC:-off} -c max_connections=300" \
      start >/dev/null; then
    echo "postgres-cluster: pg_ctl start failed:" >&2; cat "$LFG_POSTGRES_DIR/server.log" >&2; return 1
  fi
  export LFG_TEST_DATABASE_URL="postgresql:///postgres?host=$LFG_POSTGRES_DIR&port=$port&user=lfg"
  export LFG_REQUIRE_POSTGRES=1
  echo "postgres-cluster: throwaway PostgreSQL on $LFG_POSTGRES_DIR (port $port, socket only)"
}
