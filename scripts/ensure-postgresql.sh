#!/usr/bin/env bash
# The PostgreSQL tests start a throw-away server of their own (initdb into a temporary folder,
# pg_ctl on 127.0.0.1; test/support/postgres-cluster.ts): they need Debian's server binaries,
# not a running service. TESSERA_TEST_POSTGRES_URL names a server to use instead, and then
# nothing is installed. Otherwise install Debian's postgresql when it is missing and we may
# (root with apt-get, as on a fresh CI or dev machine); else say how, and fail, rather than skip.
set -euo pipefail
if [ -n "${TESSERA_TEST_POSTGRES_URL:-}" ]; then exit 0; fi
if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || command -v initdb >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's postgresql for the PostgreSQL tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
else
  echo "The PostgreSQL tests need Debian's postgresql (sudo apt-get install -y postgresql), or TESSERA_TEST_POSTGRES_URL naming a server whose user may create databases" >&2
  exit 1
fi
