#!/usr/bin/env bash
# The browser tests drive Debian's chromium with playwright-core (no browser download). Install
# it when it is missing and we may (root with apt-get, as on a fresh CI or dev machine); else
# say how, and fail, rather than skip the browser tests.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "The browser tests need Debian's chromium: sudo apt-get install -y chromium" >&2
  exit 1
fi
