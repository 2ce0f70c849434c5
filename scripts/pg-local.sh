#!/usr/bin/env bash
# pg-local.sh — start or stop a throwaway PostgreSQL 15 server for Queue Lab's reality check.
#
# For: the native tests of crates/pgcheck (QUEUE_LAB_PG_URL) and trying the pgcheck command
# locally. Not for: anything that keeps data. The cluster lives under /tmp, trusts every
# loopback connection and runs with fsync off so that test runs are quick.
#
#   scripts/pg-local.sh start    initdb if needed, start, create the database, print its URL
#   scripts/pg-local.sh stop     stop the server (the data directory stays for the next start)
#   scripts/pg-local.sh status   say whether it runs, and the URL
#   scripts/pg-local.sh url      print the URL only
#
# Both start and stop are idempotent. PostgreSQL refuses to run as root, so as root the
# server runs as the `postgres` user (created with useradd when missing); as any other user
# it runs as that user.
#
# Settings (environment): QUEUE_LAB_PG_BIN (default /usr/lib/postgresql/15/bin),
# QUEUE_LAB_PG_PORT (54329), QUEUE_LAB_PG_DATA (/tmp/queue-lab-pg/data).
set -euo pipefail

PG_BIN="${QUEUE_LAB_PG_BIN:-/usr/lib/postgresql/15/bin}"
PORT="${QUEUE_LAB_PG_PORT:-54329}"
DATA="${QUEUE_LAB_PG_DATA:-/tmp/queue-lab-pg/data}"
DB_NAME="queue_lab"
DB_USER="postgres"
URL="postgres://${DB_USER}@127.0.0.1:${PORT}/${DB_NAME}"

die() {
  echo "pg-local.sh: $*" >&2
  exit 1
}

[ -x "$PG_BIN/pg_ctl" ] || die "no PostgreSQL server at $PG_BIN (install postgresql-15, or set QUEUE_LAB_PG_BIN)"

# The OS user that owns the cluster; as root we hand it to `postgres`.
if [ "$(id -u)" -eq 0 ]; then
  OS_USER="postgres"
else
  OS_USER="$(id -un)"
fi

# Run a command as the cluster's owner.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$OS_USER" -- "$@"
  else
    "$@"
  fi
}

ensure_owner() {
  if [ "$(id -u)" -eq 0 ] && ! id -u "$OS_USER" >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/postgresql --shell /bin/bash "$OS_USER" \
      || die "could not create the $OS_USER user"
  fi
}

running() {
  [ -f "$DATA/PG_VERSION" ] && as_owner "$PG_BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1
}

start() {
  ensure_owner
  local parent
  parent="$(dirname "$DATA")"
  mkdir -p "$parent"
  if [ "$(id -u)" -eq 0 ]; then
    chown "$OS_USER" "$parent"
  fi
  if [ ! -f "$DATA/PG_VERSION" ]; then
    as_owner "$PG_BIN/initdb" -D "$DATA" -U "$DB_USER" --auth=trust -E UTF8 --locale=C >"$parent/initdb.log" 2>&1 \
      || die "initdb failed; see $parent/initdb.log"
  fi
  if running; then
    echo "pg-local.sh: already running on 127.0.0.1:$PORT" >&2
  else
    # Sockets go to the data directory's parent so nothing needs /var/run/postgresql.
    as_owner "$PG_BIN/pg_ctl" -D "$DATA" -l "$parent/server.log" -w -t 60 \
      -o "-p $PORT -c listen_addresses=127.0.0.1 -k $parent -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >/dev/null || die "the server did not start; see $parent/server.log"
  fi
  if ! as_owner "$PG_BIN/psql" -h 127.0.0.1 -p "$PORT" -U "$DB_USER" -d postgres -tAc \
    "select 1 from pg_database where datname = '$DB_NAME'" | grep -q 1; then
    as_owner "$PG_BIN/createdb" -h 127.0.0.1 -p "$PORT" -U "$DB_USER" "$DB_NAME" \
      || die "could not create database $DB_NAME"
  fi
  echo "$URL"
}

stop() {
  if running; then
    as_owner "$PG_BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null || die "pg_ctl stop failed"
    echo "pg-local.sh: stopped" >&2
  else
    echo "pg-local.sh: not running" >&2
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status)
    if running; then echo "running: $URL"; else echo "stopped"; exit 3; fi
    ;;
  url) echo "$URL" ;;
  *)
    echo "usage: scripts/pg-local.sh start|stop|status|url" >&2
    exit 2
    ;;
esac
