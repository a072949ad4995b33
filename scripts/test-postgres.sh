#!/usr/bin/env bash
# A throwaway PostgreSQL for the test suite, so the storage tests run against a real server.
#
#   scripts/test-postgres.sh start   prints postgresql+psycopg://postgres@127.0.0.1:55432/coup_trainer_test
#   scripts/test-postgres.sh stop    stops it and removes <repo>/.pgtest
#
# Why it never fails: a machine without PostgreSQL (or without root/sudo to install it) must
# still run the tests. `start` then explains why on stderr, prints no URL and exits 0, and the
# PostgreSQL tests are skipped with that reason. The URL is the only line written to stdout.
set -uo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
DIR="$REPO/.pgtest"          # the socket and the log; the cluster itself in $DIR/data
DATA="$DIR/data"
PORT=55432
DB=coup_trainer_test
URL="postgresql+psycopg://postgres@127.0.0.1:$PORT/$DB"

say() { echo "test-postgres: $*" >&2; }
give_up() { say "$* -- the PostgreSQL tests will be skipped"; exit 0; }

bin_dir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

# initdb and the server refuse to run as root: as root, run them as the postgres system user.
as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

install_postgres() {
    local sudo=""
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null && sudo -n true 2>/dev/null \
            || give_up "PostgreSQL is not installed and installing it needs root or passwordless sudo"
        sudo="sudo -n"
    fi
    command -v apt-get >/dev/null || give_up "PostgreSQL is not installed and apt-get is not available"
    say "installing PostgreSQL with apt-get"
    $sudo apt-get update -qq >&2 \
        && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >&2 \
        || give_up "apt-get install postgresql failed"
}

running() { [ -n "${BIN:-}" ] && [ -f "$DATA/PG_VERSION" ] && as_owner "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; }

start() {
    BIN="$(bin_dir)"
    if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
        install_postgres
        BIN="$(bin_dir)"
        [ -n "$BIN" ] && [ -x "$BIN/initdb" ] || give_up "no server binaries under /usr/lib/postgresql/*/bin after installing"
    fi

    if running; then
        say "reusing the server already running in $DATA"
    else
        rm -rf "$DIR"   # a leftover of a run that was killed: throwaway, start afresh
        mkdir -p "$DIR" || give_up "cannot create $DIR"
        chmod 700 "$DIR"
        if [ "$(id -u)" = 0 ]; then
            id postgres >/dev/null 2>&1 || give_up "running as root but there is no 'postgres' system user to own the cluster"
            chown postgres: "$DIR" || give_up "cannot chown $DIR to postgres"
            as_owner test -w "$DIR" || give_up "the postgres user cannot reach $DIR (a parent folder is not traversable)"
        fi
        local socket="$DIR"
        # A unix socket path is limited to 107 bytes; a deep checkout listens on TCP only.
        [ ${#socket} -gt 90 ] && socket=""
        as_owner "$BIN/initdb" -D "$DATA" -U postgres -A trust -E UTF8 --locale=C --no-sync \
            >"$DIR/initdb.log" 2>&1 || { cat "$DIR/initdb.log" >&2; give_up "initdb failed"; }
        # Only loopback, our own port and socket; durability off, it is thrown away anyway.
        as_owner tee -a "$DATA/postgresql.conf" >/dev/null <<CONF
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$socket'
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
        as_owner "$BIN/pg_ctl" -D "$DATA" -l "$DIR/server.log" -w -t 30 start >/dev/null 2>&1 \
            || { tail -n 20 "$DIR/server.log" >&2 2>/dev/null; give_up "the server did not start (is port $PORT taken?)"; }
        say "started PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') in $DATA on 127.0.0.1:$PORT"
    fi

    local exists
    exists="$("$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -tAc \
        "select 1 from pg_database where datname = '$DB'" 2>&1)" \
        || give_up "cannot connect to the server on 127.0.0.1:$PORT: $exists"
    if [ "$exists" != 1 ]; then
        "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres "$DB" >&2 || give_up "createdb $DB failed"
    fi
    echo "$URL"
}

stop() {
    BIN="$(bin_dir)"
    if running; then
        as_owner "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >/dev/null 2>&1 || say "pg_ctl stop failed"
    fi
    rm -rf "$DIR"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
