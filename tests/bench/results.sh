# Sourced by the benchmark scripts: one CSV row per measurement, and a plot of the file.
#   results_open FILE        starts FILE (its header), noting the commit, the date and the machine's load now
#   results_row BENCH TOOL UNIT SAMPLES-FILE   appends the median, min and max of the numbers in SAMPLES-FILE
#   results_values BENCH TOOL UNIT MEDIAN MIN MAX   appends figures computed elsewhere
#   results_plot FILE        draws FILE next to it (tests/bench/plot.py: PNG with gnuplot, else SVG)
#   seconds_between T0 T1    seconds from T0 to T1, two readings of $EPOCHREALTIME, to the microsecond (GNU time's
#                            %e gives hundredths, a tenth of a served run's time)
#   median_of                the median of the numbers on standard input, one a line (the mean of the middle two
#                            for an even count)
#   paired_ratio FILE-A FILE-B   the median of the ratios a / b of the numbers on the same lines: each pair ran
#                            one after the other, so a drift of the machine's speed moves both of a pair alike
# The numbers are read and written with a point whatever the user's locale (bash's printf, sort and awk follow it).
export LC_ALL=C
# Columns: commit,date,load,benchmark,tool,median,min,max,unit (commit: with a + when tracked files differ from it;
# load: /proc/loadavg's 1-minute figure when the file was started).
results_open() {
  results_file="$1"
  mkdir -p "$(dirname "$results_file")"
  local here
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  results_commit="$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  if [[ -n "$(git -C "$here" status --porcelain --untracked-files=no 2>/dev/null)" ]]; then
    results_commit="$results_commit+"
  fi
  results_date="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  results_load="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo -)"
  echo "commit,date,load,benchmark,tool,median,min,max,unit" >"$results_file"
}

results_values() {
  echo "$results_commit,$results_date,$results_load,$1,$2,$4,$5,$6,$3" >>"$results_file"
}

median_of() {
  sort -g | awk '{a[NR] = $1} END {printf "%g\n", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}

results_row() {
  local stats
  stats="$(median_of <"$4") $(sort -g "$4" | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%g %g", lo, hi}')"
  # shellcheck disable=SC2086
  results_values "$1" "$2" "$3" $stats
}

results_plot() {
  python3 "$(dirname "${BASH_SOURCE[0]}")/plot.py" "$1"
}

seconds_between() {
  echo "$(( ${2/./} - ${1/./} ))" | awk '{printf "%.6f\n", $1 / 1e6}'
}

paired_ratio() {
  printf '%.3f\n' "$(paste -d' ' "$1" "$2" | awk '{print $1 / $2}' | median_of)"
}
