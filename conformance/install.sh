#!/usr/bin/env bash
# Installs the pinned real pi into <project>/.pi-ref so the conformance tests can run it.
# Idempotent and silent when already installed; serialised with flock so parallel pytest
# workers don't run `npm ci` over each other. Exits non-zero (with npm's output) on failure.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ref="$(dirname "$here")/.pi-ref"
marker="$ref/node_modules/@mariozechner/pi-coding-agent/package.json"
stamp="$ref/.lock-sha256"

mkdir -p "$ref"
exec 9>"$ref/.lock"
flock 9

want="$(sha256sum "$here/package-lock.json" | cut -d' ' -f1)"
if [[ -f "$marker" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    exit 0
fi

cp "$here/package.json" "$here/package-lock.json" "$ref/"
rm -f "$stamp"
if ! log="$(cd "$ref" && npm ci --no-audit --no-fund 2>&1)"; then
    printf '%s\n' "$log" >&2
    echo "install.sh: npm ci failed in $ref" >&2
    exit 1
fi
echo "$want" >"$stamp"
