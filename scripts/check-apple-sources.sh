#!/usr/bin/env bash
# Type-checks every Apple-only Swift file on Linux against AppleStandIn/Interfaces, a declaration-only
# stand-in for the Apple frameworks (ActivityKit, WidgetKit, SwiftUI, UserNotifications, AppIntents,
# VisionKit, UIKit): a wrong label, type or missing argument fails here, not first in Xcode.
#   1. every package target with an Apple import (FleetApp, FleetAppApple, ...) is re-checked with the stand-in
#      visible (so its `#if canImport(...)` parts compile), and its module is emitted for the app to import;
#   2. every target of the iOS app (App/, the groups below) is checked as one module;
#   3. the fixtures in AppleStandIn/Fixtures prove the check bites: a file marked `// expect-error: TEXT`
#      must fail with TEXT in the diagnostics, every other fixture must pass.
# Needs `swift build` first (it imports the package's modules). How to extend: docs/apple-stand-in.md.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(swift build --show-bin-path)
work=.build/apple-typecheck
rm -rf "$work/modules" && mkdir -p "$work/modules" "$work/cache"
flags=(-swift-version 6 -enable-upcoming-feature ExistentialAny -parse-as-library -warnings-as-errors
       -module-cache-path "$work/cache" -I "$work/modules" -I AppleStandIn/Interfaces -I "$bin/Modules")
apple='^\s*(import|#if canImport\()\s*\(?(ActivityKit|WidgetKit|SwiftUI|UIKit|UserNotifications|AppIntents|VisionKit|Vision|Security|CryptoKit)\b'

fail() { echo "check-apple-sources: $*" >&2; exit 1; }
swift_files() { find "$@" -name '*.swift' | sort; }

# 1. Package targets with Apple-only code, dependencies first.
targets=$(grep -rlE "$apple" --include='*.swift' Sources | cut -d/ -f2 | sort -u)
ordered=$(for t in FleetCore HTTPTypes FleetApp FleetAppApple $targets; do echo "$t"; done | awk '!seen[$0]++' \
  | grep -xF -f <(echo "$targets") || true)
checked=0
for target in $ordered; do
  files=$(swift_files "Sources/$target")
  # shellcheck disable=SC2086
  swiftc -emit-module -module-name "$target" "${flags[@]}" -emit-module-path "$work/modules/$target.swiftmodule" \
    $files || fail "Sources/$target does not type-check against the Apple stand-in"
  checked=$((checked + $(echo "$files" | wc -l)))
done

# 2. The iOS app's targets (the same source groups as App/project.yml).
app_groups=(
  "LFG:App/LFG App/Shared"
  "LFGWidgets:App/Widgets App/Shared"
  "LFGNotificationService:App/NotificationService App/Shared/AppGroup.swift"
)
covered=""
for group in "${app_groups[@]}"; do
  name=${group%%:*}
  dirs=()
  for dir in ${group#*:}; do [ -e "$dir" ] && dirs+=("$dir"); done
  [ ${#dirs[@]} -eq 0 ] && continue
  files=$(swift_files "${dirs[@]}")
  [ -z "$files" ] && continue
  # shellcheck disable=SC2086
  swiftc -typecheck -module-name "$name" "${flags[@]}" $files || fail "app target $name does not type-check"
  covered="$covered"$'\n'"$files"
  checked=$((checked + $(echo "$files" | wc -l)))
done
if [ -d App ]; then
  for file in $(swift_files App); do
    # A here-string, not `echo | grep -q`: grep -q exits at the first match, and under pipefail the
    # echo it cut off (SIGPIPE) failed the check now and then for a file that was covered.
    grep -qxF "$file" <<<"$covered" || fail "$file is in no app target group; add its folder to app_groups"
  done
fi

# 3. The fixtures: the check must accept correct calls and refuse wrong ones.
fixtures=0
for fixture in $(swift_files AppleStandIn/Fixtures); do
  expected=$(sed -n 's|^// expect-error: ||p' "$fixture")
  if output=$(swiftc -typecheck -module-name Fixture "${flags[@]}" "$fixture" 2>&1); then
    [ -z "$expected" ] || fail "$fixture type-checked, but it must fail with: $expected"
  else
    [ -n "$expected" ] || { echo "$output" >&2; fail "$fixture must type-check"; }
    while IFS= read -r text; do
      grep -qF -- "$text" <<<"$output" || { echo "$output" >&2; fail "$fixture failed, but not with: $text"; }
    done <<< "$expected"
  fi
  fixtures=$((fixtures + 1))
done
echo "check-apple-sources: $checked Apple-only files type-check against the stand-in; $fixtures fixtures behave"
