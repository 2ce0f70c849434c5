#!/usr/bin/env bash
# pg-local.sh — start or stop a throwaway PostgreSQL server for Queue Lab's reality check.
#
# For: the native tests of crates/pgcheck (QUEUE_LAB_PG_URL) and trying the pgcheck command
# locally. Not for: anything that keeps data. The cluster lives under /tmp, trusts every
# loopback connection and runs with fsync off so that test runs are quick.
#
#   scripts/pg-local.sh start    initdb if needed, start, create the database, print its URL
#   scripts/pg-local.sh stop     stop the server (the data directory stays for the next start)
#   scripts/pg-local.sh status   say whether it runs, and the URL
#   scripts/pg-local.sh url      print the URL only
#   scripts/pg-local.sh major    print the server's major version (e.g. 15), for installing
#                                extensions built for it (./lab installs postgresql-<major>-pgq3)
#
# Both start and stop are idempotent. PostgreSQL refuses to run as root, so as root the
# server runs as the `postgres` user (created with useradd when missing); as any other user
# it runs as that user.
#
# The server is the newest PostgreSQL installed as /usr/lib/postgresql/<version>/bin (Debian
# and Ubuntu packages, postgresql-NN), unless QUEUE_LAB_PG_BIN names one. A data directory
# made by another major version cannot be started by it: `start` then stops that cluster
# (with its own binaries when they are installed), moves it aside to <data>.pg<version> and
# makes a new one.
#
# Settings (environment): QUEUE_LAB_PG_BIN (default: the newest /usr/lib/postgresql/*/bin),
# QUEUE_LAB_PG_PORT (54329), QUEUE_LAB_PG_DATA (/tmp/queue-lab-pg/data).
set -euo pipefail

# The newest /usr/lib/postgresql/<version>/bin with a pg_ctl, by version order (10 after 9.6);
# empty when there is none.
newest_pg_bin() {
  local dir newest=""
  while IFS= read -r dir; do
    if [ -x "$dir/pg_ctl" ]; then
      newest="$dir"
    fi
  done < <(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V)
  printf '%s' "$newest"
}

PG_BIN="${QUEUE_LAB_PG_BIN:-$(newest_pg_bin)}"
PORT="${QUEUE_LAB_PG_PORT:-54329}"
DATA="${QUEUE_LAB_PG_DATA:-/tmp/queue-lab-pg/data}"
DB_NAME="queue_lab"
DB_USER="postgres"
URL="postgres://${DB_USER}@127.0.0.1:${PORT}/${DB_NAME}"

die() {
  echo "pg-local.sh: $*" >&2
  exit 1
}

if [ -n "${QUEUE_LAB_PG_BIN:-}" ]; then
  [ -x "$PG_BIN/pg_ctl" ] || die "no PostgreSQL server at $PG_BIN (QUEUE_LAB_PG_BIN)"
else
  [ -n "$PG_BIN" ] || die "no PostgreSQL server under /usr/lib/postgresql/*/bin (install postgresql, or set QUEUE_LAB_PG_BIN)"
fi

# The major version of the server at $PG_BIN ("15" from "pg_ctl (PostgreSQL) 15.14").
PG_MAJOR="$("$PG_BIN/pg_ctl" --version | sed -E 's/.* ([0-9]+)(\.[0-9]+)*.*/\1/')"

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

# The major version that made the data directory; empty when there is none.
cluster_major() {
  if [ -f "$DATA/PG_VERSION" ]; then
    cat "$DATA/PG_VERSION"
  fi
}

# The binaries that run the existing cluster: $PG_BIN, or for a cluster of another major
# version its own (when installed and QUEUE_LAB_PG_BIN does not say otherwise).
cluster_bin() {
  local major
  major="$(cluster_major)"
  if [ -n "$major" ] && [ "$major" != "$PG_MAJOR" ] && [ -z "${QUEUE_LAB_PG_BIN:-}" ] \
    && [ -x "/usr/lib/postgresql/$major/bin/pg_ctl" ]; then
    printf '%s' "/usr/lib/postgresql/$major/bin"
  else
    printf '%s' "$PG_BIN"
  fi
}

running() {
  [ -f "$DATA/PG_VERSION" ] && as_owner "$(cluster_bin)/pg_ctl" -D "$DATA" status >/dev/null 2>&1
}

# A cluster made by another major version: stop it and move it aside, so that start makes a
# new one with $PG_BIN. The cluster holds nothing to keep, but it is moved, not deleted.
retire_other_version() {
  local major aside
  major="$(cluster_major)"
  if [ -z "$major" ] || [ "$major" = "$PG_MAJOR" ]; then
    return 0
  fi
  aside="$DATA.pg$major"
  [ ! -e "$aside" ] || die "$DATA was made by PostgreSQL $major, not $PG_MAJOR, and $aside exists: remove one of them"
  if running; then
    as_owner "$(cluster_bin)/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null \
      || die "could not stop the PostgreSQL $major cluster in $DATA"
  fi
  mv "$DATA" "$aside" || die "could not move $DATA aside"
  echo "pg-local.sh: $DATA was made by PostgreSQL $major; moved to $aside, making a PostgreSQL $PG_MAJOR cluster" >&2
}

start() {
  ensure_owner
  local parent
  parent="$(dirname "$DATA")"
  mkdir -p "$parent"
  if [ "$(id -u)" -eq 0 ]; then
    chown "$OS_USER" "$parent"
  fi
  retire_other_version
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
    as_owner "$(cluster_bin)/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null || die "pg_ctl stop failed"
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
  major) echo "$PG_MAJOR" ;;
  *)
    echo "usage: scripts/pg-local.sh start|stop|status|url|major" >&2
    exit 2
    ;;
esac
