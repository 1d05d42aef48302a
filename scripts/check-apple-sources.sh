#!/usr/bin/env bash
# Apple-only files (ActivityKit, WidgetKit, SwiftUI) cannot compile on Linux; make sure they at least parse.
set -euo pipefail
cd "$(dirname "$0")/.."
files=$(grep -rlE '^\s*(import|#if canImport\()\s*\(?(ActivityKit|WidgetKit|SwiftUI|UIKit|AppIntents|UserNotifications)' --include='*.swift' Sources || true)
count=0
for file in $files; do
  swiftc -parse "$file" >/dev/null || { echo "check-apple-sources: $file does not parse" >&2; exit 1; }
  count=$((count + 1))
done
echo "check-apple-sources: $count Apple-only files parse"
