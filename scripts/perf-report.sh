#!/usr/bin/env bash
# The figures the performance targets are stated in (docs/performance.md#targets), in one command, for a QUIET
# machine (nothing else running; ~15-20 min on 2 cores):
#
#   scripts/perf-report.sh [OUT_DIR] [RUNS] [BASELINE_COMMIT]      (defaults: artifacts/perf-report/<time>, 3, de2015c)
#
# 1. Publishes the service from the working tree, and from BASELINE_COMMIT (git archive), once each.
# 2. RUNS times, the same shoot-out: PostgreSQL and SQLite, default relational settings (v1-shared-uow), plus
#    SQLite's "straightforward" service; 10,000 workflows at 100 copies after a 5,000-workflow warm-up; each
#    variant over HTTP, through the store port (raw), and against the BASELINE_COMMIT service beside it (after it
#    in odd runs, before it in even runs: the order within a pair moves its figures, whichever build runs first);
#    PostgreSQL analyzes the row's database and checkpoints before every measured window;
#    pgbench with the same four transactions. Every run is a full report (report.md, report.json).
# 3. Prints the median (min-max) of every figure over the runs as docs/performance.md table rows (--median-of), and
#    saves them in OUT_DIR/summary.md.
#
# SQL Server and MongoDB rows (the test engines, tests/Load/README.md) join the same runs with
#   PERF_REPORT_ENGINES='--sqlserver "<conn>" --mongodb "<uri>"' scripts/perf-report.sh ...
# each at its default settings (SQL Server relational/v1-shared-uow, MongoDB document/majority); about 10 minutes
# more per run on Babelfish and FerretDB.
#
# The Native AOT build under the same load (docs/cold-start.md#native-aot):
#   PERF_REPORT_NATIVE=1 scripts/perf-report.sh OUT 3 HEAD
# publishes the working tree as Native AOT for the rows under test (needs clang; SQLite and PostgreSQL only, so
# not with PERF_REPORT_ENGINES); with HEAD as the baseline, each pair is the same code, native against ReadyToRun.
#
# The figures: wf/s, raw wf/s, HTTP/raw, × pgbench, service CPU ms per workflow (the service process's
# /proc CPU over the measured window ÷ workflows), the driver's, the baseline's, CPU vs baseline, and each build's
# peak memory (the service process's peak resident set).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/artifacts/perf-report/$(date -u +%Y%m%d-%H%M%S)}"
runs="${2:-3}"
baseline="${3:-de2015c}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$root"

echo "Building the shoot-out ..."
dotnet build tests/Load/Load.csproj -c Release --artifacts-path "$out/build/load" -v quiet -nologo
load_dll="$out/build/load/bin/Load/release/OrderService.Load.dll"

publish() { # source_root output_dir artifacts_dir
  dotnet publish "$1/src/OrderService/OrderService.csproj" -c Release -o "$2" -r linux-x64 --self-contained false \
    -p:PublishReadyToRun=true --artifacts-path "$3" -v quiet -nologo
}

native="${PERF_REPORT_NATIVE:-0}"
if [[ "$native" == 1 ]]; then
  [[ -z "${PERF_REPORT_ENGINES:-}" ]] || { echo "PERF_REPORT_NATIVE=1: the native build has no SQL Server or MongoDB store; leave PERF_REPORT_ENGINES unset." >&2; exit 2; }
  echo "Publishing the service (working tree, Native AOT) ..."
  scripts/publish-native.sh src/OrderService/OrderService.csproj "$out/service" "$out/build/service"
  service="$out/service/OrderService"
else
  echo "Publishing the service (working tree) ..."
  publish "$root" "$out/service" "$out/build/service"
  service="$out/service/OrderService.dll"
fi
echo "Publishing the service at $baseline ..."
mkdir -p "$out/baseline-src"
git -C "$root" archive --format=tar "$baseline" | tar -x -C "$out/baseline-src"
publish "$out/baseline-src" "$out/baseline-service" "$out/build/baseline"

variants=relational/v1-shared-uow,straightforward
engines=()
if [[ -n "${PERF_REPORT_ENGINES:-}" ]]; then
  eval "engines=($PERF_REPORT_ENGINES)"
  variants+=",document/majority"
fi

reports=()
for run in $(seq 1 "$runs"); do
  echo "== run $run of $runs"
  dotnet "$load_dll" --stores postgres,sqlite --variants "$variants" ${engines[@]+"${engines[@]}"} \
    --workflows 10000 --concurrency 100 --warmup 5000 \
    --service-dll "$service" \
    --baseline-commit "$baseline" --baseline-service-dll "$out/baseline-service/OrderService.dll" \
    $( (( run % 2 == 0 )) && echo --baseline-first ) \
    --note "scripts/perf-report.sh run $run of $runs$( [[ "$native" == 1 ]] && echo ', Native AOT against ReadyToRun' )$( (( run % 2 == 0 )) && echo ', baseline rows first' )" \
    --out "$out/run-$run" > "$out/run-$run.log" 2>&1 || echo "run $run: the shoot-out exited non-zero (see $out/run-$run.log)"
  grep -E '^(Service CPU|PostgreSQL|SQLite|postgres HTTP|sqlite HTTP)' "$out/run-$run.log" || true
  if [[ -f "$out/run-$run/report.json" ]]; then reports+=(--median-of "$out/run-$run/report.json"); fi
done

if [[ ${#reports[@]} -eq 0 ]]; then echo "no run wrote a report" >&2; exit 1; fi
dotnet "$load_dll" "${reports[@]}" | tee "$out/summary.md"
echo "Summary: $out/summary.md; each run's report: $out/run-N/report.md"
