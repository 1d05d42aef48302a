#!/usr/bin/env bash
# Installs every system package LFG needs on a fresh Debian 12 machine (run as root).
# Idempotent: a second run only checks. Called by .ci/run and named in the README.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
export DEBIAN_FRONTEND=noninteractive

# libcurl 8 from bookworm-backports: Debian 12's 7.88.1 has HTTP/2 bugs that break h2c reuse,
# reset streams after a response and stall at one allowed stream (see reference/platform-notes.md 3.3).
BACKPORTS=/etc/apt/sources.list.d/backports.sources
if [ ! -f "$BACKPORTS" ]; then
  MIRROR=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
  MIRROR=${MIRROR:-http://deb.debian.org/debian}
  printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$MIRROR" | $SUDO tee "$BACKPORTS" >/dev/null
  NEED_UPDATE=1
fi

# libqrencode-dev: the pairing QR code; zbar-tools (zbarimg): the test that reads that code back.
PACKAGES=(libnghttp2-dev libssl-dev libsqlite3-dev libpq-dev postgresql libqrencode-dev zbar-tools pkg-config nghttp2-client openssl)
BACKPORTED=(libcurl4-openssl-dev libcurl4)
OPTIONAL=(chromium python3 nginx-light libnginx-mod-http-echo wrk)   # scripts/dashboard-check.sh and bench/ (nginx: a second endpoint for bench/apns.sh and the reference in bench/ingest.sh; wrk: bench/ingest.sh); skipped when unavailable

missing=()
for p in "${PACKAGES[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
curl_version=$(dpkg-query -W -f='${Version}' libcurl4-openssl-dev 2>/dev/null || echo none)
case "$curl_version" in 8.*) ;; *) missing+=(backported-curl) ;; esac
if [ "${LFG_SETUP_OPTIONAL:-1}" = 1 ]; then
  for p in "${OPTIONAL[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: every package is already installed"
  exit 0
fi
echo "setup: installing ${missing[*]}"
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${PACKAGES[@]}" >/dev/null
$SUDO apt-get install -y -qq -t bookworm-backports "${BACKPORTED[@]}" >/dev/null
if [ "${LFG_SETUP_OPTIONAL:-1}" = 1 ]; then
  $SUDO apt-get install -y -qq "${OPTIONAL[@]}" >/dev/null || echo "setup: optional packages unavailable: ${OPTIONAL[*]}"
fi
echo "setup: done (libcurl $(dpkg-query -W -f='${Version}' libcurl4-openssl-dev))"
