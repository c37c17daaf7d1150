#!/usr/bin/env bash
# Fuzzes for longer than the build's bounded run: repeated sessions of one fuzz test that share one growing
# corpus (tests/.cifuzz-corpus), until MINUTES have passed or a finding stops it. TEST is PipelineFuzzTest
# (parse -> verify -> translate -> llc-22, 60-second sessions), KernelFuzzTest (generated kernels compiled
# for each target by gpu-translate, 40-second sessions) or ServerFrameFuzzTest (malformed frames to a
# resident server). Jazzer writes each finding as a reproducer into
# tests/src/test/resources/dev/mgpu/tests/TESTInputs/METHOD/, where the build replays it.
#
# usage: tests/fuzz/run.sh [MINUTES] [TEST]   (default 60, PipelineFuzzTest)
# Prints each session's executions and coverage (and the figures a test prints: KernelFuzzTest's kernels
# compiled and located errors per target), and totals.
set -uo pipefail
minutes="${1:-60}"
test="${2:-PipelineFuzzTest}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
mvn -B -q install -DskipTests || exit 2
end=$((SECONDS + minutes * 60))
runs=0
sessions=0
while ((SECONDS < end)); do
  log="$(mktemp)"
  # Other programs from the same corpus each session (KernelFuzzTest's seeds; a finding names its salt).
  mvn -B verify -pl tests -Dtest="$test" -Dsurefire.failIfNoSpecifiedTests=false \
    -Dmgpu.kernelFuzz.salt="$RANDOM$RANDOM" >"$log" 2>&1
  status=$?
  done_line="$(grep -a 'DONE' "$log" | tail -1)"
  echo "session $((sessions + 1)): ${done_line:-no summary}"
  grep -a -e ' figures:' -e 'found by LLVM: ' "$log"
  n="$(sed -n 's/^#\([0-9]*\)[[:space:]]*DONE.*/\1/p' <<<"$done_line")"
  runs=$((runs + ${n:-0}))
  sessions=$((sessions + 1))
  if ((status != 0)); then
    grep -a -m5 -E 'FuzzTestFinding|Exception' "$log"
    echo "finding after $sessions sessions, $runs executions; log: $log"
    exit 1
  fi
  rm -f "$log"
done
echo "$sessions sessions, $runs executions in $((SECONDS / 60)) minutes, no finding"
