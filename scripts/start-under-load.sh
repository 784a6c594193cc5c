#!/usr/bin/env bash
# A replica started under full load: how long the service runs above its steady CPU per workflow once it turns ready,
# while its tiered JIT compiles the hot code beside the requests. Per start: the published service (ReadyToRun, as
# the image builds it) on a fresh database of one PostgreSQL, the shoot-out's workflow at full concurrency from the
# moment /health/ready answers, with no warm-up, and once a second the service's CPU, its JIT thread's CPU and the
# workflows finished (scripts/start-under-load.py). One markdown table, a row per start.
#
#   scripts/start-under-load.sh [OUT_DIR]      (default artifacts/start-under-load/<time>)
#
#   START_WORKFLOWS=60000   workflows per start (about 30 s here)
#   START_CONCURRENCY=100   concurrent copies of the workflow
#   START_RUNS="default default default"   the starts, in order. A start may carry runtime settings for its own
#                           process: default@DOTNET_TC_CallCountingDelayMs=0 (NAME=VALUE, comma-separated).
#   START_PG_PORT=5770      the throwaway PostgreSQL cluster's port (default settings, fsync on; stopped at the end)
#
# Needs curl, psql and python3; run as root (the cluster runs as user postgres).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/artifacts/start-under-load/$(date -u +%Y%m%d-%H%M%S)}"
workflows="${START_WORKFLOWS:-60000}"
concurrency="${START_CONCURRENCY:-100}"
runs="${START_RUNS:-default default default}"
pg_port="${START_PG_PORT:-5770}"
http_port=$(( pg_port + 1 ))
mkdir -p "$out/logs"
out="$(cd "$out" && pwd)"
cd "$root"
export DOTNET_NOLOGO=1 DOTNET_CLI_TELEMETRY_OPTOUT=1 PGOPTIONS="-c client_min_messages=warning"

# shellcheck source=lib/throwaway-postgres.sh
source "$root/scripts/lib/throwaway-postgres.sh"
pg_dir="/tmp/start-under-load-pg-$$" service_pid="" sampler_pid=""
cleanup() {
  [[ -n "$service_pid" ]] && kill "$service_pid" 2>/dev/null || true
  [[ -n "$sampler_pid" ]] && kill "$sampler_pid" 2>/dev/null || true
  throwaway_postgres_stop "$pg_dir" || true
}
trap cleanup EXIT
throwaway_postgres_start "$pg_dir" "$pg_port"

echo "Publishing the service, building the load driver ..."
dotnet publish src/OrderService/OrderService.csproj -c Release -r linux-x64 --self-contained false -p:PublishReadyToRun=true \
  -o "$out/publish" --artifacts-path "$out/build" -v quiet -nologo >/dev/null
dotnet build tests/Load/Load.csproj -c Release -v quiet -nologo >/dev/null

rows="$out/rows.md"
: >"$rows"
index=0
for run in $runs; do
  index=$(( index + 1 ))
  database="start_$index"
  settings=""
  [[ "$run" == *@* ]] && settings="${run#*@}"
  IFS=',' read -ra settings_env <<<"$settings"
  psql -q -d postgres -c "CREATE DATABASE $database" >/dev/null
  echo "== start $index: $run"
  env ASPNETCORE_ENVIRONMENT=Production Authorization__Mode=None Logging__LogLevel__Default=Warning \
    Store__Provider=PostgreSql \
    "ConnectionStrings__Orders=Host=127.0.0.1;Port=$pg_port;Username=postgres;Database=$database" "${settings_env[@]}" \
    dotnet "$out/publish/OrderService.dll" --urls "http://127.0.0.1:$http_port" >"$out/logs/service-$index.log" 2>&1 &
  service_pid=$!
  for _ in $(seq 1 240); do
    curl -sf "http://127.0.0.1:$http_port/health/ready" >/dev/null && break
    kill -0 "$service_pid" 2>/dev/null || { echo "the service ended; see $out/logs/service-$index.log" >&2; exit 1; }
    sleep 0.25
  done
  python3 scripts/start-under-load.py sample "$service_pid" "$pg_port" "$database" "$out/samples-$index.txt" &
  sampler_pid=$!
  dotnet run -c Release --no-build --project tests/Load -- --target "http://127.0.0.1:$http_port" \
    --workflows "$workflows" --concurrency "$concurrency" --out "$out/nbomber/$index" >"$out/logs/load-$index.log" 2>&1 \
    || { echo "the load of start $index failed; see $out/logs/load-$index.log" >&2; exit 1; }
  sleep 2 # the last second's statistics reach pg_stat_user_tables
  kill "$service_pid" && wait "$service_pid" 2>/dev/null || true
  wait "$sampler_pid" 2>/dev/null || true
  service_pid="" sampler_pid=""
  python3 scripts/start-under-load.py summarize "$run" "$out/samples-$index.txt" | tee -a "$rows"
done

{
  echo "| start | settled after | workflows in the first 8 s | service CPU ms/workflow, first 8 s | JIT CPU ms, first 8 s | steady CPU ms/workflow | first 8 s ÷ steady |"
  echo "|---|--:|--:|--:|--:|--:|--:|"
  cat "$rows"
  echo
  echo "$workflows workflows at $concurrency copies per start from the moment the service was ready, one PostgreSQL," \
    "$(date -u +%F) at $(git rev-parse --short HEAD). Settled: the first second from which three in a row stay within" \
    "1.25x of the steady CPU per workflow (from 10 s to the end)."
} | tee "$out/starts.md"
echo "Saved in $out/starts.md"
