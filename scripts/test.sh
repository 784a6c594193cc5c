#!/usr/bin/env bash
# The one test command (README, and .ci/run): installs PostgreSQL when its binaries are missing, builds
# and runs every test project in Release, prints how long each assembly took and how many tests ran per store
# (with their test time), and ends with
#   Tests: N passed, N failed, N skipped
# It fails when any test fails, when a test assembly does not report, or when the PostgreSQL tests did
# not run: a PostgreSQL suite that did not run is a failure, not a skip. SQL Server and MongoDB tests that need a
# server skip (with the reason) unless ORDERS_TEST_SQLSERVER / ORDERS_TEST_MONGODB name one or a Docker engine can
# run their container; the Citus tests skip unless ORDERS_TEST_CITUS names a cluster (../shared/engines/citus).
# It uses a Docker engine that already runs (Testcontainers, the image test) but never starts one.
#
# As root it also installs pg_auto_failover (postgresql-<major>-auto-failover, pg-auto-failover-cli) for the failover
# tests when it is missing; without root those tests report skipped, with the reason. They count as PostgreSQL tests
# (trait Server=PgAutoFailover): the one skip a PostgreSQL test may report, unless pg_auto_failover is installed and
# none of them ran. As root it installs clang for the Native AOT build (NativeAotTests: about 2 minutes) when no clang
# is on PATH; without it those tests report skipped, with the reason.
# Environment: ORDERS_TEST_POSTGRES (use this server instead of a throwaway cluster), ORDERS_TEST_SQLSERVER,
# ORDERS_TEST_MONGODB, ORDERS_TEST_ARTIFACTS (build output; default ./artifacts), ORDERS_TEST_TIMEOUT (per
# assembly; default 45m), ORDERS_TEST_IMAGE=1 (also build and start the Dockerfile's image: minutes).
# With npm present it installs the pinned npm tools the tests run, each with npm ci from its package-lock.json:
# the OpenAPI linters into $ORDERS_TEST_ARTIFACTS/openapi-lint, the deployment validators into
# $ORDERS_TEST_ARTIFACTS/deployment-validators.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
artifacts="${ORDERS_TEST_ARTIFACTS:-$repo/artifacts}"
results="$artifacts/test-results"
projects=(tests/Unit/Unit.csproj tests/Integration/Integration.csproj tests/Load.Tests/Load.Tests.csproj
  tests/Deployment/Deployment.csproj)
export DOTNET_NOLOGO=1 DOTNET_CLI_TELEMETRY_OPTOUT=1

postgres_binaries() {
  local dir
  dir="$(pg_config --bindir 2>/dev/null || true)"
  [[ -n "$dir" && -x "$dir/initdb" && -x "$dir/pg_ctl" ]] && return 0
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    [[ -x "$dir/initdb" && -x "$dir/pg_ctl" ]] && return 0
  done
  command -v initdb >/dev/null && command -v pg_ctl >/dev/null
}

if [[ -z "${ORDERS_TEST_POSTGRES:-}" ]] && ! postgres_binaries; then
  if [[ "$(id -u)" -ne 0 ]]; then
    echo "PostgreSQL server binaries (initdb, pg_ctl) are missing. Install them, then run this again:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y postgresql" >&2
    echo "(or set ORDERS_TEST_POSTGRES to a connection string of a server the tests may create databases on)" >&2
    exit 1
  fi
  echo "==> PostgreSQL server binaries not found: installing them with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends postgresql
  postgres_binaries || { echo "PostgreSQL installed, but initdb/pg_ctl are still not found." >&2; exit 1; }
fi
# pg_auto_failover (a monitor and two nodes on this machine) for the failover tests, packaged by Debian per PostgreSQL
# major version. Installed when missing and we are root; otherwise those tests report skipped, with the reason.
pg_major="$(ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -n 1)"
pg_auto_failover_installed() {
  [[ -n "$pg_major" ]] && command -v pg_autoctl >/dev/null && [[ -f "/usr/lib/postgresql/$pg_major/lib/pgautofailover.so" ]]
}
if [[ -n "$pg_major" ]] && ! pg_auto_failover_installed; then
  if [[ "$(id -u)" -eq 0 ]]; then
    echo "==> pg_auto_failover not found: installing postgresql-$pg_major-auto-failover and pg-auto-failover-cli with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q --no-install-recommends "postgresql-$pg_major-auto-failover" pg-auto-failover-cli \
      || { apt-get update -q && apt-get install -y -q --no-install-recommends "postgresql-$pg_major-auto-failover" pg-auto-failover-cli; } \
      || echo "==> pg_auto_failover could not be installed: the failover tests will report skipped"
  else
    echo "==> pg_auto_failover is missing and this is not root: the failover tests will report skipped"
    echo "    (sudo apt-get install -y postgresql-$pg_major-auto-failover pg-auto-failover-cli)"
  fi
fi
# The Native AOT build (NativeAotTests) links with clang, plain or Debian's versioned clang-N.
if ! compgen -c clang | grep -qE '^clang(-[0-9]+)?$'; then
  if [[ "$(id -u)" -eq 0 ]]; then
    echo "==> clang not found: installing clang and zlib1g-dev with apt-get (the Native AOT build links with them)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q --no-install-recommends clang zlib1g-dev \
      || { apt-get update -q && apt-get install -y -q --no-install-recommends clang zlib1g-dev; } \
      || echo "==> clang could not be installed: the Native AOT tests will report skipped"
  else
    echo "==> clang is missing and this is not root: the Native AOT tests will report skipped (sudo apt-get install -y clang zlib1g-dev)"
  fi
fi
if [[ -z "${ORDERS_TEST_POSTGRES:-}" && "$(id -u)" -eq 0 ]] && ! id postgres >/dev/null 2>&1; then
  echo "Running as root: the throwaway PostgreSQL cluster runs as user 'postgres', which does not exist (apt-get install postgresql creates it)." >&2
  exit 1
fi

# The pinned npm tools some tests run (they need Node.js 20+ with npm, on the machine image), each installed the same
# way: npm ci from the package-lock.json beside them into its own folder under $artifacts, again only when the lock
# file changed, and that folder exported to the tests. Without npm those tests report skipped, with the reason;
# Debian's own nodejs (18) is too old for Redocly CLI 2, so it is not installed from here.
# --ignore-scripts: no package needs an install step (the one script there, @scarf/scarf, only reports the install).
npm_tools() {   # npm_tools <what> <folder with package-lock.json> <install into> <variable for the tests> <bin>...
  local what="$1" from="$2" into="$3" variable="$4" bin stale=0
  shift 4
  cmp -s "$from/package-lock.json" "$into/package-lock.json" || stale=1
  for bin in "$@"; do [[ -x "$into/node_modules/.bin/$bin" ]] || stale=1; done
  if [[ "$stale" -eq 1 ]]; then
    echo "==> Installing $what (npm ci into $into)"
    mkdir -p "$into"
    cp "$from/package.json" "$from/package-lock.json" "$into/"
    (cd "$into" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) \
      || { echo "npm ci of $what failed (see above)." >&2; exit 1; }
  fi
  export "$variable=$into"
}
if command -v npm >/dev/null; then
  npm_tools "the OpenAPI linters" tests/OpenApiLint "$artifacts/openapi-lint" ORDERS_TEST_OPENAPI_LINT redocly spectral
  npm_tools "the deployment validators" tests/Deployment/validators "$artifacts/deployment-validators" \
    ORDERS_TEST_DEPLOYMENT_VALIDATORS dclint
else
  echo "==> npm not found: the OpenAPI lint test and the deployment checks that need dclint or kubernetes-models will report skipped"
fi

# Testcontainers 4.16 speaks Docker API 1.44 (Engine 25+). An older engine that answers (Debian 12's docker.io
# speaks 1.41) is still usable when told its version.
if [[ -z "${DOCKER_API_VERSION:-}" ]] && command -v docker >/dev/null; then
  engine_api="$(timeout 10 docker version --format '{{.Server.APIVersion}}' 2>/dev/null || true)"
  if [[ "$engine_api" =~ ^1\.([0-9]+)$ ]] && (( BASH_REMATCH[1] < 44 )); then
    echo "==> Docker answers with API $engine_api: DOCKER_API_VERSION=$engine_api for Testcontainers"
    export DOCKER_API_VERSION="$engine_api"
  fi
fi

for project in "${projects[@]}"; do
  echo "==> Building $project (Release)"
  dotnet build "$project" -c Release --artifacts-path "$artifacts" -v quiet -nologo
done

rm -rf "$results"
mkdir -p "$results"
run_failed=0
assembly_times=()
for project in "${projects[@]}"; do
  name="$(basename "$project" .csproj)"
  assembly="$(find "$artifacts/bin/$name/release" -maxdepth 1 -name '*.Tests.dll' | head -n 1)"
  [[ -n "$assembly" ]] || { echo "No test assembly was built for $project" >&2; exit 1; }
  echo "==> Running $(basename "$assembly")"
  begun=$SECONDS
  # The runner prints every skipped test with its reason (hundreds of identical SQL Server lines): drop
  # them here; the summary below gives each reason once per test class, with the count.
  if ! timeout --kill-after=30s "${ORDERS_TEST_TIMEOUT:-45m}" dotnet "$assembly" -noLogo -noColor -preEnumerateTheories -xml "$results/$name.xml" \
      | awk '/\[SKIP\]$/ { skipping = 1; indent = match($0, /[^ ]/); next }
             skipping && match($0, /[^ ]/) > indent { next }
             { skipping = 0; print; fflush() }'; then
    run_failed=1
  fi
  if [[ ! -s "$results/$name.xml" ]]; then
    echo "FAIL: $name wrote no results (it crashed or timed out)"
    run_failed=1
  fi
  assembly_times+=("$(printf '  %-40s %5d s' "$(basename "$assembly")" $((SECONDS - begun)))")
done

# One line per test, "<store group>\t<result>\t<seconds>\t<server>", from the <test> elements (one record each) and
# their traits: Store (SQLite, PostgreSql, SqlServer, MongoDb, Citus; only on a test that reaches that database, so
# the counts and the PostgreSQL guard count no unit test), Layout=Document for the document layout, and
# Server=PgAutoFailover on a test that brings its own cluster (tests/Shared/StoreTraits.cs).
summary="$results/summary.tsv"
{ cat "$results"/*.xml 2>/dev/null || true; } | awk 'BEGIN { RS = "<test " } NR > 1 {
    attributes = substr($0, 1, index($0, ">")); result = ""; seconds = 0; store = ""; layout = ""; server = ""
    if (match(attributes, / result="[^"]*"/)) result = substr(attributes, RSTART + 9, RLENGTH - 10)
    if (match(attributes, / time="[^"]*"/)) seconds = substr(attributes, RSTART + 7, RLENGTH - 8) + 0
    if (match($0, /<trait name="Store" value="[^"]*"/)) store = substr($0, RSTART + 27, RLENGTH - 28)
    if (match($0, /<trait name="Layout" value="[^"]*"/)) layout = substr($0, RSTART + 28, RLENGTH - 29)
    if (match($0, /<trait name="Server" value="[^"]*"/)) server = substr($0, RSTART + 28, RLENGTH - 29)
    if (store == "") group = "store-independent"
    else if (store == "MongoDb") group = "MongoDB"   # one layout
    else {
      group = store == "PostgreSql" ? "PostgreSQL" : store == "SqlServer" ? "SQL Server" : store
      group = group (layout == "Document" ? " document" : " relational")
    }
    printf "%s\t%s\t%.3f\t%s\n", group, result, seconds, server }' >"$summary"

echo
echo "Time per test assembly (wall clock):"
printf '%s\n' "${assembly_times[@]}"
echo
# The test time is each test's own time summed (classes run in parallel, so the groups overlap in wall clock).
echo "Tests per store:"
awk -F'\t' '
  { ran[$1] += ($2 == "Pass" || $2 == "Fail"); pass[$1] += ($2 == "Pass"); fail[$1] += ($2 == "Fail"); skip[$1] += ($2 == "Skip"); took[$1] += $3 }
  END { for (g in ran) printf "  %-24s ran %5d (%d passed, %d failed), %d skipped, test time %d s\n", g, ran[g], pass[g], fail[g], skip[g], took[g] }
' "$summary" | sort
# Each skip reason once per test class, with the count; the XML writer escapes quotes as \", undone here.
skips="$({ cat "$results"/*.xml 2>/dev/null \
  | grep -oP '<test [^>]*result="Skip"[^>]*>(?:(?!</test>).)*?<reason><!\[CDATA\[.*?\]\]>' || true; } \
  | sed -E 's/^.* type="([^"]*)".*<reason><!\[CDATA\[(.*)\]\]>$/\1\t\2/; s/^[^\t]*\.//; s/\\"/"/g' \
  | sort | uniq -c | sort -k2 \
  | awk -F'\t' '{ split($1, head, " "); printf "  %s: %d skipped: %s\n", head[2], head[1], $2 }')"
if [[ -n "$skips" ]]; then
  echo "Skipped, per test class (class: count: reason):"
  echo "$skips"
fi
# Each failed test by name with its message's first line, here at the end: a log cut to its tail still names them.
failures="$({ cat "$results"/*.xml 2>/dev/null || true; } | perl -0777 -ne '
  while (/<test ([^>]*result="Fail"[^>]*)>(.*?)<\/test>/gs) {
    my ($attributes, $body) = ($1, $2);
    my ($name) = $attributes =~ / name="([^"]*)"/;
    my ($message) = $body =~ /<message><!\[CDATA\[\s*([^\n]*)/;
    printf "  %s\n      %s\n", $name, substr($message // "(no message)", 0, 300);
  }')"
if [[ -n "$failures" ]]; then
  echo "Failed:"
  echo "$failures"
fi

read -r passed failed skipped notrun < <(awk -F'\t' '
  { p += ($2 == "Pass"); f += ($2 == "Fail"); s += ($2 == "Skip"); n += ($2 == "NotRun") }
  END { printf "%d %d %d %d\n", p, f, s, n }' "$summary")
# A PostgreSQL test never skips, but for those on a pg_auto_failover cluster where pg_auto_failover is missing (or the
# opt-in report): where it is installed, they must have run.
postgres_ran="$(awk -F'\t' '$1 ~ /^PostgreSQL/ && ($2 == "Pass" || $2 == "Fail")' "$summary" | wc -l)"
postgres_skipped="$(awk -F'\t' '$1 ~ /^PostgreSQL/ && $2 == "Skip" && $4 != "PgAutoFailover"' "$summary" | wc -l)"
failover_ran="$(awk -F'\t' '$4 == "PgAutoFailover" && ($2 == "Pass" || $2 == "Fail")' "$summary" | wc -l)"
failover_tests="$(awk -F'\t' '$4 == "PgAutoFailover"' "$summary" | wc -l)"

status=0
if [[ "$postgres_ran" -eq 0 ]]; then
  echo "FAIL: the PostgreSQL tests did not run."
  status=1
elif [[ "$postgres_skipped" -gt 0 ]]; then
  echo "FAIL: $postgres_skipped PostgreSQL tests were skipped; a PostgreSQL test that did not run is a failure."
  status=1
fi
if [[ "$failover_tests" -gt 0 && "$failover_ran" -eq 0 ]] && pg_auto_failover_installed; then
  echo "FAIL: pg_auto_failover is installed, yet none of its $failover_tests PostgreSQL tests ran (their skip reasons are above)."
  status=1
fi
if [[ "$failed" -gt 0 || "$run_failed" -ne 0 || "$notrun" -gt 0 ]]; then
  status=1
fi
echo "Results: $results"
echo "Tests: $passed passed, $failed failed, $skipped skipped"
exit "$status"
