# Sourced by the measurement scripts: a throwaway PostgreSQL cluster as the shoot-out's (default settings, fsync on,
# room for every pool), run as user postgres (the caller is root). Needs the server binaries (initdb, pg_ctl).
#
#   throwaway_postgres_start DIR PORT [SETTINGS]   initdb into DIR/data, add SETTINGS (postgresql.conf lines) if any, start
#                                                 on 127.0.0.1:PORT; exports PGHOST, PGPORT, PGUSER
#   throwaway_postgres_stop DIR         stop it at once and remove DIR

throwaway_postgres_bin() {
  local bin
  bin="$(pg_config --bindir 2>/dev/null || true)"
  [[ -n "$bin" && -x "$bin/initdb" ]] || bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
  echo "$bin"
}

throwaway_postgres_start() {
  local dir="$1" port="$2" settings="${3:-}" bin
  bin="$(throwaway_postgres_bin)"
  mkdir -p "$dir" && chown postgres:postgres "$dir"
  runuser -u postgres -- "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale --no-sync >/dev/null
  printf "listen_addresses = '127.0.0.1'\nport = %s\nunix_socket_directories = '%s'\nmax_connections = 1000\nfsync = on\n%s\n" \
    "$port" "$dir" "$settings" >>"$dir/data/postgresql.conf"
  runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start >/dev/null
  export PGHOST=127.0.0.1 PGPORT="$port" PGUSER=postgres
}

throwaway_postgres_stop() {
  local dir="$1"
  [[ -d "$dir/data" ]] && runuser -u postgres -- "$(throwaway_postgres_bin)/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1
  rm -rf "$dir"
}
