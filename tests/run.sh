#!/usr/bin/env bash
# The README's test command: install what the tests need, then run them.
#
# Python packages come from the `test` extra; the system tools the tests drive (headless
# Chromium, shellcheck, systemd-analyze, mosquitto, openssl, gnubg) are looked for first and installed
# with apt-get only when missing and we may (root, or sudo without a password). Any arguments
# go to pytest: `bash tests/run.sh tests/web -x`.
set -euo pipefail
cd "$(dirname "$0")/.."

python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'

have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/usr/bin/$1" ]; }

missing=()
if [ -z "${CHROMIUM:-}" ] && ! have chromium && ! have chromium-browser; then
    missing+=(chromium)
fi
have shellcheck || missing+=(shellcheck)
have systemd-analyze || missing+=(systemd)
have mosquitto || missing+=(mosquitto)
have openssl || missing+=(openssl)  # the club tests make TLS certificates
have gnubg || [ -x /usr/games/gnubg ] || missing+=(gnubg)

if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        as_root=()
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        as_root=(sudo -n)
    else
        as_root=(false)
    fi
    if command -v apt-get >/dev/null 2>&1 && [ "${as_root[0]:-}" != false ]; then
        echo "tests/run.sh: installing ${missing[*]} with apt-get" >&2
        export DEBIAN_FRONTEND=noninteractive
        "${as_root[@]}" apt-get update -qq
        "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "tests/run.sh: missing system tools: ${missing[*]};" \
            "install them (Debian: sudo apt-get install ${missing[*]}) or their tests fail/skip" >&2
    fi
fi

exec python3 -m pytest "$@"
