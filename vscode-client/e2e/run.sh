#!/usr/bin/env bash
# The extension in a real VS Code: installs what it drives (install.sh), builds and
# installs the .vsix into code-server, and drives it with headless Chromium
# (vscode.test.cjs). Screenshots go to the folder given, by default /tmp/vscode-e2e-shots.
#   vscode-client/e2e/run.sh [screenshots folder]
# The language server is the auditex of AUDITEX_E2E_PYTHON, by default the checkout's .venv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
shots="$(mkdir -p "${1:-/tmp/vscode-e2e-shots}" && cd "${1:-/tmp/vscode-e2e-shots}" && pwd)"
work=/tmp/auditex-vscode-e2e  # kept after a run, for its logs
python="${AUDITEX_E2E_PYTHON:-$repo/.venv/bin/python}"
"$python" -c 'import auditex' || { echo "e2e: $python cannot import auditex; set AUDITEX_E2E_PYTHON" >&2; exit 1; }

started=$SECONDS
eval "$(bash "$here/install.sh")"
echo "e2e: installed in $((SECONDS - started)) s"

rm -rf "$work" "$shots"/*.png
mkdir -p "$work/client"
started=$SECONDS
(
    # A clean copy, as a fresh clone has it: no node_modules/ or out/ of a developer's.
    tar -C "$repo/vscode-client" --exclude=./node_modules --exclude=./out --exclude='./*.vsix' --exclude=./e2e -cf - . | tar -C "$work/client" -xf -
    cd "$work/client"
    npm ci --prefer-offline --loglevel=error
    npm run --silent compile
    npm run --silent package >/dev/null
)
echo "e2e: built the .vsix in $((SECONDS - started)) s"

echo "e2e: screenshots in $shots"
echo "e2e: code-server, its logs and the paper in $work"
AUDITEX_E2E_REPO="$repo" AUDITEX_E2E_PYTHON="$python" AUDITEX_E2E_SHOTS="$shots" AUDITEX_E2E_WORK="$work" \
    AUDITEX_E2E_VSIX="$(ls "$work"/client/*.vsix)" AUDITEX_E2E_VSCE="$work/client/node_modules/.bin/vsce" AUDITEX_E2E_CODE_SERVER="$(command -v code-server)" \
    node --test --test-reporter=spec --test-timeout=1200000 "$here/vscode.test.cjs"
