#!/usr/bin/env bash
# Fuzzes parse -> verify -> translate -> llc-22 for longer than the build's bounded run: repeated 60-second
# sessions of PipelineFuzzTest that share one growing corpus (tests/.cifuzz-corpus), until MINUTES have
# passed or a finding stops it. Jazzer writes each finding as a reproducer into
# tests/src/test/resources/dev/mgpu/tests/PipelineFuzzTestInputs/pipeline/, where the build replays it.
#
# usage: tests/fuzz/run.sh [MINUTES]   (default 60)
# Prints each session's executions and coverage, and totals.
set -uo pipefail
minutes="${1:-60}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
mvn -B -q install -DskipTests || exit 2
end=$((SECONDS + minutes * 60))
runs=0
sessions=0
while ((SECONDS < end)); do
  log="$(mktemp)"
  mvn -B verify -pl tests -Dtest=PipelineFuzzTest -Dsurefire.failIfNoSpecifiedTests=false >"$log" 2>&1
  status=$?
  done_line="$(grep -a 'DONE' "$log" | tail -1)"
  echo "session $((sessions + 1)): ${done_line:-no summary}"
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
