#!/usr/bin/env bash
# The browser tests drive a Chromium with playwright-core (no browser download): CHROMIUM_PATH
# when it is set, else Debian's /usr/bin/chromium. A CHROMIUM_PATH is used as it is, and nothing
# is installed. Otherwise install Debian's chromium when it is missing and we may (root with
# apt-get, as on a fresh CI or dev machine); else say how, and fail, rather than skip the tests.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ]; then
  if [ -f "$CHROMIUM_PATH" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
  echo "CHROMIUM_PATH is $CHROMIUM_PATH, which is not an executable file: point it at a Chromium or unset it" >&2
  exit 1
fi
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "The browser tests need Debian's chromium (sudo apt-get install -y chromium), or CHROMIUM_PATH set to a Chromium" >&2
  exit 1
fi
