#!/usr/bin/env bash
# Cold start: process start -> first 201 on POST /orders, each variant started N times (default 10), and the
# median and spread per variant, with the ratio of medians against a bare minimal API (tests/ColdStart/Bare).
# SQLite (the default store) with a fresh data directory for every start. Starts are interleaved (variant
# after variant, round after round) so machine noise spreads over all variants alike.
#
#   scripts/cold-start.sh                 # publish (Release, linux-x64, framework-dependent) and measure
#   scripts/cold-start.sh --no-publish    # measure what artifacts/coldstart holds
#   COLD_STARTS=20 scripts/cold-start.sh  # more starts per variant
#   COLD_START_COMPOSITE=1 scripts/cold-start.sh  # also the self-contained composite builds (~5 min more per publish)
#   COLD_START_AOT=1 scripts/cold-start.sh        # also Native AOT builds of the service and the bare API (needs clang)
#
# Variants: the service published with ReadyToRun (the default publish since it measured best) and without;
# ReadyToRun without the request delegate generator (handlers bound by expression trees at start-up);
# the ReadyToRun build with TieredPGO back on, with tiered compilation off, and with no call-counting delay (runtime
# knobs, via DOTNET_ env);
# the bare API, published with the same flags as the default, and the bare API that also writes the body to SQLite
# (tests/ColdStart/BareSqlite: the database's share of a cold start). Needs curl. About 3-5 minutes on 2 busy cores.
# With COLD_START_COMPOSITE=1, the service and the bare API also self-contained, with the framework and the app
# compiled as one ReadyToRun composite image (generic code across assemblies precompiled too; started by apphost).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
out="$repo/artifacts/coldstart"
starts="${COLD_STARTS:-10}"
rid="${COLD_START_RID:-linux-x64}"
export DOTNET_NOLOGO=1 DOTNET_CLI_TELEMETRY_OPTOUT=1

publish() { # name project readytorun [extra msbuild property: built apart, since it changes the compilation]
  echo "==> publish $1 (ReadyToRun=$3)"
  rm -rf "${out:?}/$1"
  dotnet publish "$2" -c Release -r "$rid" --self-contained false -p:UseAppHost=false \
    -p:PublishReadyToRun="$3" ${4:+"$4"} --artifacts-path "$out/build${4:+-$1}" -o "$out/$1" -v quiet -nologo >/dev/null
}

publish_composite() { # name project: self-contained, framework and app in one composite ReadyToRun image
  echo "==> publish $1 (self-contained, ReadyToRun composite)"
  rm -rf "${out:?}/$1"
  dotnet publish "$2" -c Release -r "$rid" --self-contained true -p:UseAppHost=true -p:PublishReadyToRun=true \
    -p:PublishReadyToRunComposite=true --artifacts-path "$out/build-$1" -o "$out/$1" -v quiet -nologo >/dev/null
}
composite="${COLD_START_COMPOSITE:-0}"

publish_aot() { # name project: Native AOT (SQLite and PostgreSQL only for the service: OrderService.csproj)
  echo "==> publish $1 (Native AOT)"
  rm -rf "${out:?}/$1"
  scripts/publish-native.sh "$2" "$out/$1" "$out/build-$1" "$rid"
}
aot="${COLD_START_AOT:-0}"

if [[ "${1:-}" != "--no-publish" ]]; then
  publish service-r2r src/OrderService/OrderService.csproj true
  publish service-jit src/OrderService/OrderService.csproj false
  publish service-r2r-no-rdg src/OrderService/OrderService.csproj true -p:EnableRequestDelegateGenerator=false
  publish bare tests/ColdStart/Bare/Bare.csproj true
  publish bare-sqlite tests/ColdStart/BareSqlite/BareSqlite.csproj true
  if [[ "$composite" == 1 ]]; then
    publish_composite service-composite src/OrderService/OrderService.csproj
    publish_composite bare-composite tests/ColdStart/Bare/Bare.csproj
  fi
  if [[ "$aot" == 1 ]]; then
    publish_aot service-aot src/OrderService/OrderService.csproj
    publish_aot bare-aot tests/ColdStart/Bare/Bare.csproj
  fi
fi

# name | directory | dll | extra environment
variants=(
  "bare|bare|Bare.dll|"
  "bare + one SQLite INSERT|bare-sqlite|BareSqlite.dll|"
  "service R2R (default)|service-r2r|OrderService.dll|"
  "service no R2R|service-jit|OrderService.dll|"
  "service R2R, handlers bound at run time (no RDG)|service-r2r-no-rdg|OrderService.dll|"
  "service R2R, TieredPGO=1|service-r2r|OrderService.dll|DOTNET_TieredPGO=1"
  "service R2R, TieredCompilation=0|service-r2r|OrderService.dll|DOTNET_TieredCompilation=0"
  "service R2R, TC_CallCountingDelayMs=0|service-r2r|OrderService.dll|DOTNET_TC_CallCountingDelayMs=0"
)
if [[ "$composite" == 1 ]]; then
  # A dll of "./Name" is started as that apphost, not through dotnet.
  variants+=("bare, self-contained composite|bare-composite|./Bare|" "service, self-contained composite|service-composite|./OrderService|")
fi
if [[ "$aot" == 1 ]]; then
  variants+=("bare, Native AOT|bare-aot|./Bare|" "service, Native AOT|service-aot|./OrderService|")
fi
body='{"customerId":"cold-start","lines":[{"sku":"SKU-1","quantity":1,"unitPrice":9.99}]}'
# The raw milliseconds stay beside the builds, one file per variant (the variant's index), for a second look.
results="$out/results"
rm -rf "$results"; mkdir -p "$results"

now_ns() { date +%s%N; }

# One start: prints milliseconds from exec to the first 201 (or fails after 60 s).
measure() { # directory dll extra-env
  local data port pid start code elapsed
  data="$(mktemp -d)"
  port=$((20000 + RANDOM % 20000))
  start=$(now_ns)
  # Started from its own folder, as the image (WORKDIR /app) and the shoot-out start it: the content root is the
  # working directory, and the configuration file watcher walks all of it (from the repository root, every
  # artifact and node_modules folder: 40-150 ms more per start, measured).
  (cd "$out/$1" && exec env ${3:+$3} Authorization__Mode=None ASPNETCORE_URLS="http://127.0.0.1:$port" ConnectionStrings__Orders="Data Source=$data/orders.db" \
    $([[ "$2" == ./* ]] || echo dotnet) "$2") >"$data/log" 2>&1 &
  pid=$!
  while :; do
    code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -d "$body" "http://127.0.0.1:$port/orders" || true)
    [[ "$code" == "201" ]] && break
    if (( ($(now_ns) - start) > 60000000000 )) || ! kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
      # A random port someone else holds is not a failed start: the caller tries another port.
      if grep -q "address already in use" "$data/log"; then rm -rf "$data"; return 2; fi
      echo "start of $1/$2 failed (last HTTP code $code):" >&2; grep -v '^   at ' "$data/log" | tail -5 >&2
      rm -rf "$data"; return 1
    fi
    sleep 0.005
  done
  elapsed=$(( ($(now_ns) - start) / 1000000 ))
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$data"
  echo "$elapsed"
}

echo "==> $starts starts per variant, interleaved"
for ((round = 1; round <= starts; round++)); do
  for i in "${!variants[@]}"; do
    IFS='|' read -r name dir dll extra <<<"${variants[$i]}"
    for attempt in 1 2 3; do
      status=0; measure "$dir" "$dll" "$extra" >>"$results/$i" || status=$?
      (( status == 2 )) || break
    done
    (( status == 0 )) || exit 1
  done
  printf '.'
done
echo

stats() { # file -> "median min max p25 p75"
  sort -n "$1" | awk '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%d %d %d %d %d\n", m, v[1], v[NR], v[int((NR + 3) / 4)], v[int((3 * NR + 3) / 4)] }'
}

read -r bare_median _ < <(stats "$results/0")
echo
echo "| variant | median ms | min-max ms | p25-p75 ms | x bare (median) |"
echo "|---|---|---|---|---|"
for i in "${!variants[@]}"; do
  IFS='|' read -r name _ <<<"${variants[$i]}"
  read -r median min max p25 p75 < <(stats "$results/$i")
  ratio=$(awk -v a="$median" -v b="$bare_median" 'BEGIN { printf "%.2f", a / b }')
  echo "| $name | $median | $min-$max | $p25-$p75 | ${ratio}x |"
done
echo
echo "$starts starts per variant, process start to the first 201 on POST /orders (SQLite, fresh data directory), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)."
