#!/usr/bin/env bash
# A throwaway PostgreSQL for the test suite, so the storage tests run against a real server.
#
#   scripts/test-postgres.sh start   prints postgresql+psycopg://postgres@127.0.0.1:PORT/coup_trainer_test
#   scripts/test-postgres.sh stop    stops it and removes its folder
#
# Where it runs: initdb and the server refuse to run as root, so as root they run as the
# `postgres` system user, which cannot enter a checkout under a private folder (a home, a
# `chmod 700` temp folder). So the cluster lives in a fresh folder of its own under /tmp (or
# /var/tmp), owned by whoever runs the server; its path is kept in <repo>/.pgtest-dir so that
# `stop`, and a later `start`, find it. The port is the first free one from 55432, so two
# checkouts on one machine can test at the same time.
#
# When the server cannot be started, `start` says why on stderr, prints no URL and exits 1;
# `make test` then runs the PostgreSQL tests anyway and they fail with that reason. The URL is
# the only line written to stdout.
set -uo pipefail

REPO="$(cd "$(dirname "$0")/.." && pwd)"
STATE="$REPO/.pgtest-dir"    # the path of the server's folder
PREFIX=coup-trainer-pg.      # its name under /tmp: <prefix>XXXXXX
FIRST_PORT=55432
PORTS=50                     # ports tried from FIRST_PORT on
DB=coup_trainer_test

say() { echo "test-postgres: $*" >&2; }
give_up() { say "$* -- PostgreSQL cannot be used for the tests"; exit 1; }

bin_dir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

as_root() { [ "$(id -u)" = 0 ]; }

# initdb and the server refuse to run as root: as root, run them as the postgres system user.
as_owner() {
    if as_root; then runuser -u postgres -- "$@"; else "$@"; fi
}

install_postgres() {
    local sudo=""
    if ! as_root; then
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

# The folder named in the state file, if it is one of ours (the state file is only a hint: never
# remove a folder it names unless the name is the one `start` gives).
recorded_dir() {
    local dir
    [ -f "$STATE" ] || return 1
    dir="$(head -n 1 "$STATE")"
    case "$dir" in
        /tmp/"$PREFIX"??????|/var/tmp/"$PREFIX"??????) [ -d "$dir" ] && echo "$dir" ;;
        *) return 1 ;;
    esac
}

running() { [ -f "$1/data/PG_VERSION" ] && as_owner "$BIN/pg_ctl" -D "$1/data" status >/dev/null 2>&1; }

port_of() { sed -n 's/^port = \([0-9]*\)$/\1/p' "$1/data/postgresql.conf" | tail -n 1; }

url() { echo "postgresql+psycopg://postgres@127.0.0.1:$1/$DB"; }

# A new folder the server's user can use, under /tmp or else /var/tmp.
new_dir() {
    local parent dir
    for parent in /tmp /var/tmp; do
        dir="$(mktemp -d "$parent/${PREFIX}XXXXXX" 2>/dev/null)" || continue
        if as_root; then
            chown postgres: "$dir" 2>/dev/null && as_owner test -w "$dir" \
                && { echo "$dir"; return 0; }
        else
            echo "$dir"; return 0
        fi
        rm -rf "$dir"
    done
    return 1
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start_server() {   # $1: the folder; starts the cluster in it on a free port, prints the port
    local dir="$1" data="$1/data" port
    as_owner "$BIN/initdb" -D "$data" -U postgres -A trust -E UTF8 --locale=C --no-sync \
        >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; return 1; }
    # Only loopback, our own socket folder; durability off, it is thrown away anyway. A unix
    # socket path is limited to 107 bytes: with a long folder name, TCP only.
    local socket="$dir"
    [ ${#socket} -gt 90 ] && socket=""
    as_owner tee -a "$data/postgresql.conf" >/dev/null <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$socket'
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
    for ((port = FIRST_PORT; port < FIRST_PORT + PORTS; port++)); do
        port_free "$port" || continue
        echo "port = $port" | as_owner tee -a "$data/postgresql.conf" >/dev/null
        rm -f "$dir/server.log"
        if as_owner "$BIN/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 30 start >/dev/null 2>&1; then
            echo "$port"
            return 0
        fi
        # Taken between the check and the start (another checkout starting too): next port.
        grep -q "could not bind\|Address already in use\|could not create any TCP/IP sockets" \
            "$dir/server.log" 2>/dev/null || { tail -n 20 "$dir/server.log" >&2; return 1; }
    done
    say "no free port in $FIRST_PORT..$((FIRST_PORT + PORTS - 1))"
    return 1
}

start() {
    BIN="$(bin_dir)"
    if [ -z "$BIN" ] || [ ! -x "$BIN/initdb" ]; then
        install_postgres
        BIN="$(bin_dir)"
        [ -n "$BIN" ] && [ -x "$BIN/initdb" ] || give_up "no server binaries under /usr/lib/postgresql/*/bin after installing"
    fi
    if as_root; then
        id postgres >/dev/null 2>&1 || give_up "running as root but there is no 'postgres' system user to run the server"
    fi

    local dir port
    if dir="$(recorded_dir)" && running "$dir"; then
        port="$(port_of "$dir")"
        say "reusing the server already running in $dir on 127.0.0.1:$port"
    else
        [ -n "${dir:-}" ] && rm -rf "$dir"   # a leftover of a run that was killed: start afresh
        rm -f "$STATE"
        dir="$(new_dir)" || give_up "cannot make a folder under /tmp or /var/tmp that the server's user can write"
        echo "$dir" >"$STATE" || { rm -rf "$dir"; give_up "cannot write $STATE"; }
        port="$(start_server "$dir")" || give_up "the server did not start in $dir (log above)"
        say "started PostgreSQL $("$BIN/postgres" --version | awk '{print $3}') in $dir on 127.0.0.1:$port"
    fi

    local exists
    exists="$("$BIN/psql" -h 127.0.0.1 -p "$port" -U postgres -d postgres -tAc \
        "select 1 from pg_database where datname = '$DB'" 2>&1)" \
        || give_up "cannot connect to the server on 127.0.0.1:$port: $exists"
    if [ "$exists" != 1 ]; then
        "$BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres "$DB" >&2 || give_up "createdb $DB failed"
    fi
    url "$port"
}

stop() {
    BIN="$(bin_dir)"
    local dir
    if dir="$(recorded_dir)"; then
        if [ -n "$BIN" ] && running "$dir"; then
            as_owner "$BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || say "pg_ctl stop failed"
        fi
        rm -rf "$dir"
    fi
    rm -f "$STATE"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
