#!/usr/bin/env bash
# End-to-end check on a machine with an NVIDIA GPU: the example kernels compiled by nvcc to cubin and to
# PTX, embedded by gpu-translate, linked with libmgpu's CUDA backend, run under every load strategy, and
# their numbers checked; clusters; a fat binary's run-time selection; the kernels that mgpu compiles
# itself (examples/kernels), checked and timed against nvcc's; gpu.printf, constant tables, subgroup and
# block reductions, memory views; the launch-overhead benchmark; and the programs of tests/mlir/upstream-style,
# written as upstream writes them, whose output must be their output on the CPU backend.
#
# usage: tests/gpu/run-cuda-check.sh [PREPARED_DIR]
#   Without PREPARED_DIR, runs tests/gpu/prepare.sh first (needs Java and a built gpu-translate).
#   A machine without Java can run it on a directory that prepare.sh filled elsewhere.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="${1:-}"
if [[ -z "$dir" ]]; then
  dir="$(mktemp -d)"
  "$here/prepare.sh" "$dir" || exit 1
fi
cd "$dir" || exit 1
# cuda.h: from CUDA_HOME, else next to the real nvcc (which may sit behind a wrapper script).
cudainc="${CUDA_HOME:-}/include"
if [[ ! -f "$cudainc/cuda.h" ]]; then
  for d in "$(dirname "$(readlink -f "$(command -v nvcc)")")/../include" /usr/local/cuda/include /usr/local/cuda-*/include; do
    [[ -f "$d/cuda.h" ]] && cudainc="$d" && break
  done
fi
cc -O2 -shared -fPIC -Iruntime-c/include -Iruntime-c/src runtime-c/src/core.c runtime-c/src/cpu.c runtime-c/src/cpu_streams.c \
  runtime-c/src/cuda.c runtime-c/src/hip_absent.c -ldl -lpthread -o libmgpu.so || exit 1
cc -O2 -shared -fPIC -Iruntime-c/include runtime-c/src/runner_utils.c -lm -o libmgpu_runner_utils.so || exit 1
export MGPU_BACKEND=cuda
pass=0
fail=0

check() { # name, expected output line, command...
  local name="$1" want="$2"
  shift 2
  local got
  # A hung program must not take the machine's whole time.
  got="$(timeout "${CHECK_TIMEOUT:-60}" "$@" 2>&1)"
  if grep -qF -- "$want" <<<"$got"; then
    echo "PASS $name"
    pass=$((pass + 1))
  else
    echo "FAIL $name"
    echo "  expected: $want"
    sed 's/^/  got: /' <<<"$got"
    fail=$((fail + 1))
  fi
}

link() { cc "$1" "$2" -L. -Wl,-rpath,"$PWD" -lmgpu -lm -o "$3"; }

declare -A expect=(
  [axpy]="axpy: OK, 1024 elements checked, y[1] = 3.25, y[1023] = 2302.75"
  [stencil2d]="stencil2d: OK, 7680 cells checked, sum = 38401.569"
  [mixed]="mixed: OK, i8 -7 i16 -1234 i32 1.23457e+08 i64 -9876543210123 f32 1.5 f64 -2.25"
)
for name in axpy stencil2d mixed; do
  for fmt in cubin ptx; do
    for s in lazy ctor per-launch; do
      link "$name.main.c" "$name.$fmt.$s.o" "$name.$fmt.$s" && check "$name $fmt $s" "${expect[$name]}" "./$name.$fmt.$s"
    done
  done
done

link memory.main.c memory.o memory && check "memory operations" "memory: OK, 16 x 2.5, 8 x -1234" ./memory

link axpy.main.c cluster.o cluster && check "axpy clusters" "${expect[axpy]}" ./cluster

link axpy.main.c fat.o fat && check "fat binary picks sm_90" "selected nvvm sm_90 bin" env MGPU_VERBOSE=1 ./fat
check "fat binary result" "${expect[axpy]}" ./fat
link axpy.main.c fat-nosm90.o fat-nosm90 &&
  check "fat binary without sm_90 JIT-compiles PTX" "selected nvvm sm_80 assembly" env MGPU_VERBOSE=1 ./fat-nosm90
check "fat binary without sm_90 result" "${expect[axpy]}" ./fat-nosm90
check "fat binary on the CPU backend" "${expect[axpy]}" env MGPU_BACKEND=cpu ./fat

# mgpu's own kernels: numbers, then kernel times against nvcc -O3's cubin of the same kernels (goal: within
# 1.1x), and SASS instruction counts: cuobjdump's where it is found, else tests/bin/sass-count's (python3).
sass() {
  if command -v cuobjdump >/dev/null; then
    cuobjdump -sass -fun "$2" "$1" 2>/dev/null | grep -cE '^\s+/\*[0-9a-f]{4}\*/'
  else
    python3 "$here/../bin/sass-count" "$1" | awk -v k="$2" '$1 == k {print $2}'
  fi
}
for k in axpy:AXPY:axpy stencil2d:STENCIL:stencil2d matmul:MATMUL:matmul reduce:REDUCE:reduce; do
  IFS=: read -r name def fn <<<"$k"
  for who in ours ours-ptx nvcc; do
    cc -O2 -DKERNEL_"$def" kernels.main.c "$name.$who.o" -L. -Wl,-rpath,"$PWD" -lmgpu -lm -o "$name.$who" &&
      check "$name kernel ($who)" "$name: OK, every number checked" "./$name.$who"
    if [[ $who == ours ]]; then # one source, NVIDIA, AMD and CPU objects: the GPU's pick
      check "$name one source picks sm_90" "selected nvvm sm_90" env MGPU_VERBOSE=1 "./$name.$who"
    fi
    grep -h "kernel .* us" <<<"$(./"$name.$who" 2>&1)" | sed "s/^/  $who: /"
  done
  if command -v cuobjdump >/dev/null || command -v python3 >/dev/null; then
    echo "  SASS instructions of $fn: ours $(sass "$name.ours.sm_90.cubin" "$fn"), nvcc $(sass kernels.nvcc.sm_90.cubin "$fn")"
  fi
done

# gpu.printf through the driver's vprintf, constant tables in global memory, subgroup reductions (checked
# bit for bit against a butterfly in C), block reductions (blocks of 100, 1,024, 1 and 1,023 threads) and
# memory views, from kernels written in place.
link printf.main.c printf.o printf && check "gpu.printf on the GPU" "thread 3: 4.50 -9 3" ./printf
link globals.main.c globals.o globals && check "constant tables on the GPU" "globals: OK, 0 wrong, out[63] = 413" ./globals
link subgroup.main.c subgroup.o subgroup &&
  check "subgroup reductions on the GPU" "subgroup: OK, 0 wrong, f[63][0] = 594.4, n[63][0] = 124" ./subgroup
link allreduce.main.c allreduce.o allreduce && check "block reductions on the GPU" "allreduce: OK" ./allreduce
link views.main.c views.o views && check "memory views on the GPU" "views: OK, 0 wrong, out[63] = 149" ./views

extra=()
defs=()
if [[ -f upstream.o ]]; then
  extra=(upstream.o)
  defs=(-DWITH_UPSTREAM)
fi
if cc -O2 "${defs[@]}" -I"$cudainc" launch_bench.c bench.lazy.o "${extra[@]}" -L. -Wl,-rpath,"$PWD" -lmgpu -ldl \
  -o launch_bench; then
  if timeout "${BENCH_TIMEOUT:-300}" ./launch_bench axpy.sm_90.cubin "${BENCH_ITERS:-20000}" "${BENCH_REPEATS:-5}"; then
    echo "PASS launch benchmark ran"
    pass=$((pass + 1))
  else
    echo "FAIL launch benchmark"
    fail=$((fail + 1))
  fi
else
  echo "FAIL launch benchmark did not build"
  fail=$((fail + 1))
fi

# Upstream's way of writing programs: on the GPU each prints what it printed on the CPU backend. (FAKE_KERNELS
# is for the driver stand-ins, which run a kernel through the program's own CPU object; a driver ignores it.)
for obj in us.*.o; do
  [[ -f "$obj" ]] || continue
  name="${obj%.o}"
  # The driver stand-ins run each launch to completion when it is queued, so kernels that wait for each other
  # across streams cannot meet there; a GPU runs them side by side.
  if [[ -n "${FAKE_KERNELS:-}" && "$name" == us.concurrent-streams ]]; then
    continue
  fi
  if cc "$obj" -L. -Wl,-rpath,"$PWD" -lmgpu_runner_utils -lmgpu -ldl -lm -o "$name" &&
    FAKE_KERNELS="$PWD/$name.cpu.so${FAKE_KERNELS:+:$FAKE_KERNELS}" timeout "${CHECK_TIMEOUT:-60}" "./$name" 2>/dev/null |
      sed 's/base@ = 0x[0-9a-f]*/base@ = ADDR/' >"$name.got" &&
    cmp -s "$name.got" "$name.expected"; then
    echo "PASS ${name#us.} (upstream style)"
    pass=$((pass + 1))
  else
    echo "FAIL ${name#us.} (upstream style)"
    diff "$name.expected" "$name.got" | sed 's/^/  /'
    fail=$((fail + 1))
  fi
done

echo "$pass passed, $fail failed"
((fail == 0))
