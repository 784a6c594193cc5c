#!/usr/bin/env bash
# The cost ladder: the same 4-step workflow (create, pay, ship, complete) over HTTP against one PostgreSQL, served by
# rung after rung, each the previous one plus a layer; per rung the rung process's user+system CPU per request
# (/proc/<pid>/stat around the measured run) and wf/s, as one markdown table.
#
#   scripts/cost-ladder.sh [OUT_DIR]            (default artifacts/cost-ladder/<time>)
#
#   LADDER_WORKFLOWS=4000  measured workflows per rung, after LADDER_WARMUP=1000 warm-up workflows
#   LADDER_CONCURRENCY=100 concurrent copies of the workflow
#   LADDER_RUNGS="a a-gc b c d e f g"  the rungs, in order (tests/CostLadder serves a to f; g is src/OrderService).
#                          A rung may carry runtime settings for its own process only, compared with the plain rung:
#                          g@DOTNET_gcServer=0 or g@DOTNET_TieredPGO=1,DOTNET_TC_QuickJitForLoops=1 (NAME=VALUE, comma-separated).
#                          g-composite is g published self-contained as one ReadyToRun composite image (framework included);
#                          g-debug is g built as `dotnet run` builds it without -c Release (Debug: no JIT optimization).
#   ORDERS_TEST_POSTGRES   an Npgsql connection string to a server to use (one database per rung is created there);
#                          unset: a throwaway cluster in /tmp/ladder-pg-<pid> on LADDER_PG_PORT=5750, stopped at the end
#
# Rungs (docs/cost-ladder.md): a = bare minimal API, Npgsql, reflection JSON, one round trip per request;
# a-gc = a with its writes through the store's group-commit writer; b = a + the request contract (validation, problem
# details, source-generated JSON); c = b over the store port (the PostgreSQL store, default settings); d = c + the
# resilience pipeline; e = d + the service's telemetry set-up; f = e + Idempotency-Keys and ETags; g = the service,
# published, default settings on PostgreSQL. Each row's last column compares it with the rung it builds on (a-gc and b
# with a), or with the row above when that rung was not run.
# The load is the shoot-out's workflow: dotnet run --project tests/Load -- --target URL (NBomber). Needs curl and psql.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/artifacts/cost-ladder/$(date -u +%Y%m%d-%H%M%S)}"
workflows="${LADDER_WORKFLOWS:-4000}"
warmup="${LADDER_WARMUP:-1000}"
concurrency="${LADDER_CONCURRENCY:-100}"
rungs="${LADDER_RUNGS:-a a-gc b c d e f g}"
pg_port="${LADDER_PG_PORT:-5750}"
http_port="${LADDER_HTTP_PORT:-5760}"
mkdir -p "$out/logs"
out="$(cd "$out" && pwd)"
cd "$root"
export DOTNET_NOLOGO=1 DOTNET_CLI_TELEMETRY_OPTOUT=1 PGOPTIONS="-c client_min_messages=warning"

# shellcheck source=lib/throwaway-postgres.sh
source "$root/scripts/lib/throwaway-postgres.sh"
pg_dir="" rung_pid=""
cleanup() {
  [[ -n "$rung_pid" ]] && kill "$rung_pid" 2>/dev/null && wait "$rung_pid" 2>/dev/null || true
  if [[ -n "$pg_dir" ]]; then
    throwaway_postgres_stop "$pg_dir" || true
  fi
}
trap cleanup EXIT

# The server: libpq's environment for psql, and an Npgsql connection string (without Database) for the rungs.
if [[ -n "${ORDERS_TEST_POSTGRES:-}" ]]; then
  server="$(sed -E 's/(^|;)[[:space:]]*Database[[:space:]]*=[^;]*//I' <<<"$ORDERS_TEST_POSTGRES")"
  IFS=';' read -ra parts <<<"$ORDERS_TEST_POSTGRES"
  for part in "${parts[@]}"; do
    key="$(tr -d ' ' <<<"${part%%=*}" | tr '[:upper:]' '[:lower:]')" value="${part#*=}"
    case "$key" in
      host|server) export PGHOST="$value" ;; port) export PGPORT="$value" ;;
      username|userid|user) export PGUSER="$value" ;; password) export PGPASSWORD="$value" ;;
    esac
  done
  echo "PostgreSQL: ORDERS_TEST_POSTGRES"
else
  pg_dir="/tmp/ladder-pg-$$"
  throwaway_postgres_start "$pg_dir" "$pg_port"
  server="Host=127.0.0.1;Port=$pg_port;Username=postgres"
  echo "PostgreSQL: throwaway cluster $pg_dir on 127.0.0.1:$pg_port"
fi

publish() { # project output
  dotnet publish "$1" -c Release -r linux-x64 --self-contained false -p:PublishReadyToRun=true \
    -o "$out/publish/$2" --artifacts-path "$out/build/$2" -v quiet -nologo >/dev/null
}
echo "Publishing the rungs and the service, building the load driver ..."
publish tests/CostLadder/CostLadder.csproj ladder
publish src/OrderService/OrderService.csproj service
if [[ " $rungs " == *" g-composite"* ]]; then
  dotnet publish src/OrderService/OrderService.csproj -c Release -r linux-x64 --self-contained true -p:PublishReadyToRun=true \
    -p:PublishReadyToRunComposite=true -o "$out/publish/service-composite" --artifacts-path "$out/build/service-composite" -v quiet -nologo >/dev/null
fi
if [[ " $rungs " == *" g-debug"* ]]; then
  dotnet build src/OrderService/OrderService.csproj -c Debug -o "$out/publish/service-debug" --artifacts-path "$out/build/service-debug" -v quiet -nologo >/dev/null
fi
dotnet build tests/Load/Load.csproj -c Release -v quiet -nologo >/dev/null

start_rung() { # rung[@NAME=VALUE,...] database log_name -> rung_pid
  local connection="$server;Database=$2" rung="${1%%@*}" settings=""
  [[ "$1" == *@* ]] && settings="${1#*@}"
  local -a command settings_env service=(env Store__Provider=PostgreSql "ConnectionStrings__Orders=$connection")
  IFS=',' read -ra settings_env <<<"$settings"
  case "$rung" in
    g) command=("${service[@]}" dotnet "$out/publish/service/OrderService.dll") ;;
    g-composite) command=("${service[@]}" "$out/publish/service-composite/OrderService") ;;
    g-debug) command=("${service[@]}" dotnet "$out/publish/service-debug/OrderService.dll") ;;
    *) command=(dotnet "$out/publish/ladder/CostLadder.dll" --rung "$rung" --postgres "$connection") ;;
  esac
  env ASPNETCORE_ENVIRONMENT=Production Authorization__Mode=None Logging__LogLevel__Default=Warning \
    Logging__LogLevel__Microsoft.AspNetCore=Warning "${settings_env[@]}" \
    "${command[@]}" --urls "http://127.0.0.1:$http_port" >"$out/logs/rung-$3.log" 2>&1 &
  rung_pid=$!
  for _ in $(seq 1 120); do
    curl -sf "http://127.0.0.1:$http_port/health/ready" >/dev/null && return 0
    kill -0 "$rung_pid" 2>/dev/null || break
    sleep 0.5
  done
  echo "rung $1 did not become ready; see $out/logs/rung-$3.log" >&2
  return 1
}

cpu_ticks() { # user + system clock ticks of a process (fields 14 and 15; the name in field 2 has no spaces here)
  awk '{ print $14 + $15 }' "/proc/$1/stat"
}

drive() { # rung name workflows
  dotnet run -c Release --no-build --project tests/Load -- --target "http://127.0.0.1:$http_port" \
    --workflows "$3" --concurrency "$concurrency" --out "$out/nbomber/$1-$2" >"$out/logs/load-$1-$2.log" 2>&1 \
    || { echo "the $2 run of rung $1 failed; see $out/logs/load-$1-$2.log" >&2; return 1; }
}

ticks_per_second="$(getconf CLK_TCK)"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
results="$out/results.tsv"
: >"$results"
index=0
for rung in $rungs; do
  index=$(( index + 1 ))
  database="ladder_$index"
  log_name="$(tr -c 'A-Za-z0-9_.\n-' '_' <<<"$rung")"
  psql -q -d postgres -c "DROP DATABASE IF EXISTS $database" -c "CREATE DATABASE $database" >/dev/null
  echo "== rung $rung"
  start_rung "$rung" "$database" "$log_name"
  drive "$log_name" warmup "$warmup"
  psql -q -d "$database" -c "CHECKPOINT" >/dev/null
  before="$(cpu_ticks "$rung_pid")"
  drive "$log_name" measured "$workflows"
  after="$(cpu_ticks "$rung_pid")"
  rate="$(grep -oE '[0-9.,]+ wf/s' "$out/logs/load-$log_name-measured.log" | tail -1 | tr -d ', wf/s')"
  kill "$rung_pid" && wait "$rung_pid" 2>/dev/null || true
  rung_pid=""
  printf '%s\t%s\t%s\n' "$rung" "$rate" "$(( after - before ))" >>"$results"
  echo "   $rate wf/s, $(( after - before )) CPU ticks"
done

{
  echo "| rung | wf/s | service CPU µs/request | service CPU ms/workflow | added over the rung it builds on |"
  echo "|---|---:|---:|---:|---:|"
  awk -F'\t' -v hz="$ticks_per_second" -v workflows="$workflows" '
    BEGIN {
      name["a"] = "a. bare minimal API: Npgsql, reflection JSON"
      name["a-gc"] = "a-gc. a with its writes through the store'"'"'s group-commit writer"
      name["b"] = "b. a + request contract: validation, problem details, source-generated JSON"
      name["c"] = "c. b over the store port: the PostgreSQL store, group commit on"
      name["d"] = "d. c + the resilience pipeline (Polly)"
      name["e"] = "e. d + the service'"'"'s telemetry set-up"
      name["f"] = "f. e + Idempotency-Keys and ETags"
      name["g"] = "g. the full service, default settings"
      name["g-composite"] = "g, self-contained, one ReadyToRun composite image"
      name["g-debug"] = "g built Debug, as dotnet run builds it without -c Release"
      split("a-gc:a b:a c:b d:c e:d f:e g:f g-composite:g g-debug:g", pairs, " ")
      for (i in pairs) { split(pairs[i], pair, ":"); base[pair[1]] = pair[2] }
    }
    {
      us = $3 * 1e6 / hz / (workflows * 4)
      if (index($1, "@") > 0) {
        # A rung with settings is compared with the plain rung.
        plain = substr($1, 1, index($1, "@") - 1)
        name[$1] = plain " with " substr($1, index($1, "@") + 1)
        base[$1] = plain
      }
      over = ($1 in base && base[$1] in seen) ? base[$1] : previous_rung
      added = over == "" ? "" : sprintf("%+.0f µs/request over %s (%.2f×)", us - seen[over], over, us / seen[over])
      printf "| %s | %.0f | %.0f | %.2f | %s |\n", ($1 in name ? name[$1] : $1), $2, us, us * 4 / 1000, added
      seen[$1] = us
      previous_rung = $1
    }' "$results"
} | tee "$out/ladder.md"
{
  echo
  echo "$workflows workflows at $concurrency copies after a $warmup-workflow warm-up per rung, one PostgreSQL, $(date -u +%F) at" \
    "$(git rev-parse --short HEAD); load average (1, 5, 15 min) $load_before before the rungs, $(cut -d' ' -f1-3 /proc/loadavg) after."
} | tee -a "$out/ladder.md"
echo "Saved in $out/ladder.md"
