#!/usr/bin/env bash
# Sealing cost per alert (privacy mode, issue 17): µs per AlertContent.make (shorten + HPKE seal to a
# device key) for an 80- and a 1,000-character question, median of N (default 2000), the reference
# opener's cost, and the sealed sizes. The README's "Privacy: sealed alerts" figures come from this.
# Usage: bench/seal.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product lfg >/dev/null
.build/release/lfg bench seal --count "${1:-2000}"
