#!/usr/bin/env bash
# Run a command beside a throwaway PostgreSQL 15 cluster: initdb in a temp dir, a free loopback
# port, UMPIRE_TEST_PG set to its URL, and the cluster stopped and removed at the end.
# initdb and postgres refuse to run as root, so as root they run as the postgres user.
set -euo pipefail
PGBIN=${PGBIN:-/usr/lib/postgresql/15/bin}
dir=$(mktemp -d /tmp/umpire-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
as_pg=()
if [ "$(id -u)" = 0 ]; then
  chown postgres:postgres "$dir"
  as_pg=(runuser -u postgres --)
fi
cleanup() {
  "${as_pg[@]}" "$PGBIN/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
"${as_pg[@]}" "$PGBIN/initdb" -D "$dir/data" -A trust -U postgres --no-sync >/dev/null
"${as_pg[@]}" "$PGBIN/pg_ctl" -D "$dir/data" -l "$dir/log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
export UMPIRE_TEST_PG="postgresql://postgres@127.0.0.1:$port/postgres"
echo "PostgreSQL 15 test cluster on 127.0.0.1:$port"
"$@"
