#!/usr/bin/env bash
# Checks that this tree's gpu-translate writes exactly what OLD_REF's writes. Both are built, then run
# side by side on every .mlir under tests/ and examples/ and on the three benchmark inputs, for each output
# kind (mlir llvm bc obj asm), and under every --module-load strategy for a few inputs. A run that fails is
# compared by its exit code and stderr text; one that succeeds, by its output bytes. Objects written as
# "@file:NAME" get the same --embed NAME=FILE on both sides.
#
# usage: tests/bench/compare-builds.sh [OLD_REF]   (default 84e96ff)
# Prints the number of outputs compared and every difference; exits 1 when there is one.
set -euo pipefail
old_ref="${1:-84e96ff}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
start=$SECONDS
work="$(mktemp -d "${TMPDIR:-/tmp}/mgpu-compare.XXXXXX")"
old="$work/old-tree"
cleanup() {
  git -C "$root" worktree remove --force "$old" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

build() { # directory, label
  echo "building $2 ..."
  if ! (cd "$1" && mvn -B -q package -DskipTests -pl tools -am) >"$work/build-$2.log" 2>&1; then
    cat "$work/build-$2.log" >&2
    echo "compare-builds: error: the $2 build failed" >&2
    exit 2
  fi
}
git -C "$root" worktree add --detach -q "$old" "$old_ref"
build "$old" "$old_ref"
build "$root" current
old_gt="$old/tools/gpu-translate"
new_gt="$root/tools/gpu-translate"

inputs="$work/inputs"
mkdir -p "$inputs" "$work/embeds" "$work/old" "$work/new"
gen="$root/../shared/bench/gen_inputs.py"
[[ -f "$gen" ]] || gen="$root/tests/bench/gen_inputs.py"
python3 "$gen" "$inputs"

compared=0
failures=0
differences=0
diff_list="$work/differences.txt"
: >"$diff_list"

# The --embed options an input needs: one deterministic file per name, holding every byte value.
embeds_for() {
  local name f
  for name in $(grep -ao '"@file:[A-Za-z0-9_.-]*"' "$1" | sed 's/"@file:\(.*\)"/\1/' | sort -u); do
    f="$work/embeds/$name.bin"
    if [[ ! -f "$f" ]]; then
      python3 -c 'import sys; sys.stdout.buffer.write(sys.argv[1].encode() + bytes(range(256)))' "$name" >"$f"
    fi
    printf '%s\n' --embed "$name=$f"
  done
}

# Runs both builds at once, each in its own directory with the same relative output path, so that any
# path in a message reads the same; then compares what they did.
run_side() { # side, gpu-translate, arguments...
  local side="$1" gt="$2"; shift 2
  cd "$work/$side"
  rm -f output
  set +e
  "$gt" "$@" -o output >stdout 2>stderr
  echo $? >rc
}

compare() { # id, gpu-translate arguments...
  local id="$1"; shift
  local rc_old rc_new
  (run_side old "$old_gt" "$@") &
  (run_side new "$new_gt" "$@") &
  wait
  compared=$((compared + 1))
  rc_old="$(cat "$work/old/rc")"; rc_new="$(cat "$work/new/rc")"
  local why=""
  if [[ "$rc_old" != "$rc_new" ]]; then
    why="exit code $rc_old, now $rc_new"
  elif [[ "$rc_old" != 0 ]]; then
    failures=$((failures + 1))
    cmp -s "$work/old/stderr" "$work/new/stderr" || why="stderr differs: $(diff "$work/old/stderr" \
      "$work/new/stderr" | head -4 | tr '\n' ' ' || true)"
    if [[ -z "$why" && -f "$work/new/output" ]]; then why="output left behind after a failure"; fi
  elif ! cmp -s "$work/old/output" "$work/new/output"; then
    why="output differs: $(cmp "$work/old/output" "$work/new/output" 2>&1 | head -1 || true)"
  elif ! cmp -s "$work/old/stdout" "$work/new/stdout"; then
    why="stdout differs"
  fi
  if [[ -n "$why" ]]; then
    differences=$((differences + 1))
    echo "DIFF $id: $why" | tee -a "$diff_list"
  fi
}

kinds=(mlir llvm bc obj asm)
echo "comparing ..."
while IFS= read -r f; do
  rel="${f#"$root"/}"
  args=()
  grep -aq 'RUN:.*--split-input-file' "$f" && args+=(--split-input-file)
  mapfile -t embed < <(embeds_for "$f")
  for k in "${kinds[@]}"; do
    compare "$rel --emit=$k" "${args[@]}" "${embed[@]}" --emit="$k" "$f"
  done
  if grep -aq 'RUN:.*--verify-diagnostics' "$f"; then
    compare "$rel --verify-diagnostics" "${args[@]}" "${embed[@]}" --verify-diagnostics "$f"
  fi
done < <(find "$root/tests" "$root/examples" -name '*.mlir' -not -path '*/target/*' -not -path '*/build/*' | sort)

for f in examples/own-objects/axpy/axpy.mlir tests/e2e/fat/fat.mlir tests/mlir/translate/ptx.mlir; do
  mapfile -t embed < <(embeds_for "$root/$f")
  for s in lazy ctor per-launch; do
    for k in "${kinds[@]}"; do
      compare "$f --module-load=$s --emit=$k" "${embed[@]}" --module-load="$s" --emit="$k" "$root/$f"
    done
  done
done

for k in "${kinds[@]}"; do
  compare "bench launches.mlir --emit=$k" --emit="$k" "$inputs/launches.mlir"
  compare "bench binaries.mlir --emit=$k" --emit="$k" "$inputs/binaries.mlir"
done
# The 100 MB input only as text and bitcode: object code adds minutes and no other path.
for k in mlir llvm bc; do
  compare "bench blob.mlir --emit=$k" --emit="$k" "$inputs/blob.mlir"
done

echo "compared $compared outputs against $old_ref ($failures of them failing runs, compared by exit code and" \
  "stderr) in $((SECONDS - start)) s: $differences differences"
if ((differences > 0)); then
  cat "$diff_list"
  exit 1
fi
