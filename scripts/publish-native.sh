#!/usr/bin/env bash
# Publishes a project as Native AOT for this machine's runtime (docs/cold-start.md#native-aot):
#
#   scripts/publish-native.sh PROJECT OUT_DIR ARTIFACTS_DIR [RID]      (RID: linux-x64 unless named)
#
# The ILCompiler links with clang; Debian may ship it only under its versioned name (clang-14), which the
# compiler does not look for, so that name is passed on. Used by scripts/cold-start.sh and scripts/perf-report.sh.
set -euo pipefail
[[ $# -eq 3 || $# -eq 4 ]] || { echo "usage: $0 PROJECT OUT_DIR ARTIFACTS_DIR [RID]" >&2; exit 2; }
linker=()
if ! command -v clang >/dev/null; then
  versioned="$(compgen -c clang- | grep -E '^clang-[0-9]+$' | sort -V | tail -n 1 || true)"
  [[ -n "$versioned" ]] || { echo "Native AOT links with clang, and none is on PATH (apt-get install clang zlib1g-dev)." >&2; exit 1; }
  linker=("-p:CppCompilerAndLinker=$versioned")
fi
# The native publish leaves empty folders in the temporary directory: give it one of its own, removed afterwards.
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
TMPDIR="$scratch" dotnet publish "$1" -c Release -r "${4:-linux-x64}" -p:PublishAot=true "${linker[@]}" --artifacts-path "$3" \
  -o "$2" -v quiet -nologo >/dev/null
