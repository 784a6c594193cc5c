#!/usr/bin/env bash
# CPU profile of the service under shoot-out load: profile before changing anything.
#
#   scripts/perf-profile.sh OUT_DIR [SERVICE_DLL] [STORE] [VARIANT]
#     STORE:   postgres (default) | sqlite      VARIANT: relational/v1-shared-uow (default: the service's defaults)
#
# Runs the shoot-out (tests/Load, built in artifacts/) for one variant with a long warm-up, finds the service
# process it started, and samples it for 15 s once the warm-up has run for 10 s, two ways:
# - perf (if installed; CPU samples at 499 Hz with call graphs; the service runs with DOTNET_PerfMapEnabled=1
#   so JIT-compiled frames have names): OUT_DIR/perf-top.txt, the top frames by exclusive ("self") and
#   inclusive ("children") CPU samples. This is the CPU profile: only running threads are sampled.
# - dotnet-trace (dotnet-sampled-thread-time, ~100 Hz per managed thread): OUT_DIR/service.nettrace and
#   OUT_DIR/top-frames.txt. It samples waiting threads too (LowLevelLifoSemaphore, Monitor.Wait, epoll):
#   read past those frames; they are wait, not CPU. Runs after perf, for another 15 s.
#
# Needs dotnet-trace: dotnet tool install --tool-path /work/tools dotnet-trace (or DOTNET_TRACE=path).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$(mkdir -p "$1" && cd "$1" && pwd)"
service_dll="${2:-}"
store="${3:-postgres}"
variant="${4:-relational/v1-shared-uow}"
trace_tool="${DOTNET_TRACE:-$(command -v dotnet-trace || echo /work/tools/dotnet-trace)}"

load_dll="$root/artifacts/bin/Load/release/OrderService.Load.dll"
if [[ ! -f "$load_dll" ]]; then
  dotnet build "$root/tests/Load/Load.csproj" -c Release --artifacts-path "$root/artifacts" -v quiet -nologo
fi

args=(--stores "$store" --variants "$variant" --workflows 20000 --warmup 4000 --concurrency 100
      --raw false --pgbench false --out "$out/shootout")
if [[ -n "$service_dll" ]]; then args+=(--service-dll "$service_dll"); fi

# Inherited by the service process: a /tmp/perf-<pid>.map of JIT-compiled code for perf, and W^X off so that
# JIT-compiled code runs from the addresses that map names (with W^X on it runs from a memfd double mapping
# that perf cannot resolve). Both only for this profile.
DOTNET_PerfMapEnabled=1 DOTNET_EnableWriteXorExecute=0 dotnet "$load_dll" "${args[@]}" > "$out/shootout.log" 2>&1 &
load_pid=$!

# The service is a child of the harness: `dotnet .../OrderService.dll --urls ...`.
service_pid=""
for _ in $(seq 1 1200); do
  service_pid="$(pgrep -P "$load_pid" -f 'OrderService.dll' | head -n1 || true)"
  [[ -n "$service_pid" ]] && break
  sleep 0.5
done
if [[ -z "$service_pid" ]]; then
  echo "the harness started no service; see $out/shootout.log" >&2
  wait "$load_pid" || true
  exit 1
fi

sleep 10
if command -v perf > /dev/null; then
  perf record -F 499 -g -p "$service_pid" -o "$out/perf.data" -- sleep 15 > "$out/perf.log" 2>&1 || true
fi
"$trace_tool" collect -p "$service_pid" --profile dotnet-sampled-thread-time --duration 00:00:00:15 \
  -o "$out/service.nettrace" > "$out/trace.log" 2>&1
wait "$load_pid" || echo "the shoot-out exited non-zero; see $out/shootout.log" >&2

{
  echo "# dotnet-sampled-thread-time, 15 s of service $service_dll, $store $variant, 100 copies"
  echo "## exclusive"
  "$trace_tool" report "$out/service.nettrace" topN -n 60
  echo "## inclusive"
  "$trace_tool" report "$out/service.nettrace" topN -n 120 --inclusive
} > "$out/top-frames.txt" 2>&1
if [[ -f "$out/perf.data" ]]; then
  {
    echo "# perf, 499 Hz CPU samples, 15 s of service $service_dll, $store $variant, 100 copies"
    echo "## exclusive (self)"
    perf report -i "$out/perf.data" --no-children --sort symbol --stdio -g none --percent-limit 0.4 2>/dev/null | grep -v '^$'
    echo "## inclusive (children)"
    perf report -i "$out/perf.data" --children --sort symbol --stdio -g none --percent-limit 2 2>/dev/null | grep -v '^$'
    echo "## by module and JIT tier"
    perf report -i "$out/perf.data" --no-children --sort dso,symbol --stdio -g none 2>/dev/null | python3 "$root/scripts/perf-modules.py" 30
    echo "## by layer (a sample counts for the first layer on its stack: scripts/perf-layers.py)"
    perf script -i "$out/perf.data" -F comm,ip,sym,dso 2>/dev/null | python3 "$root/scripts/perf-layers.py"
    echo "## by shared object"
    perf report -i "$out/perf.data" --no-children --sort dso --stdio -g none --percent-limit 0.5 2>/dev/null | grep -v '^$'
  } > "$out/perf-top.txt"
  echo "$out/perf-top.txt"
fi
# The runtime's perf maps (symbol names for perf report) are large; the reports above are what is kept.
rm -f "/tmp/perf-$service_pid.map" "/tmp/perf-$load_pid.map"
echo "$out/top-frames.txt"
