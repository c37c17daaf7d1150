#!/usr/bin/env bash
# Installs a self-contained mgpu under PREFIX: the CLI and its jars, the runtime (library, header, CMake
# package, pkg-config file) and a class-data-sharing archive made for that place. Nothing refers back to
# the source tree, so PREFIX can be any directory, and an unpacked copy of it runs wherever it lands (the
# archive is then remade or quietly skipped).
#
#   PREFIX/bin/gpu-translate             the CLI (needs Java 17 or later: JAVA_HOME, else java on PATH)
#   PREFIX/lib/mgpu/gpu-translate.jar    also runnable as java -jar; its dependencies in lib/mgpu/lib/
#   PREFIX/lib/mgpu/gpu-translate-client the client of the resident server (MGPU_SERVER=1)
#   PREFIX/lib/mgpu/mgpu-llvm-worker     LLVM's code generator for kernels, in processes of their own
#   PREFIX/include/mgpu.h, PREFIX/lib/libmgpu.so*, libmgpu.a, lib/cmake/mgpu/, lib/pkgconfig/mgpu.pc
#   PREFIX/include/mgpu_runner_utils.h, lib/libmgpu_runner_utils.so*, libmgpu_runner_utils.a,
#   lib/pkgconfig/mgpu_runner_utils.pc   upstream MLIR's runner utilities (printMemref*, vector.print's)
#
# usage: tools/make-image.sh PREFIX   (after mvn package; Maven runs it into tools/target/image)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="$1"
mkdir -p "$prefix"
prefix="$(cd "$prefix" && pwd)"
jar="$root/tools/target/gpu-translate.jar"
[[ -f "$jar" ]] || { echo "make-image: $jar is missing; run mvn package first" >&2; exit 2; }
if [[ -f "$root/runtime-c/build/libmgpu.so" ]]; then
  cmake --install "$root/runtime-c/build" --prefix "$prefix" >/dev/null
else
  # A build of the Java modules alone (mvn -pl tools) has no runtime to install.
  echo "make-image: runtime-c/build has no libmgpu yet; the image has no runtime" >&2
fi
mkdir -p "$prefix/bin" "$prefix/lib/mgpu/lib"
cp "$jar" "$prefix/lib/mgpu/"
cp "$root/tools/target/gpu-translate-client" "$root/tools/target/mgpu-llvm-worker" "$prefix/lib/mgpu/"
cp "$root"/tools/target/lib/*.jar "$prefix/lib/mgpu/lib/"
# The launcher finds its jar relative to itself: bin/../lib/mgpu.
sed -e 's|^jar="$here/target/gpu-translate.jar"$|jar="$here/../lib/mgpu/gpu-translate.jar"|' \
  -e 's|"$here/target/gpu-translate.jsa"|"$here/../lib/mgpu/gpu-translate.jsa"|g' \
  -e 's|"$here/target/gpu-translate.aot"|"$here/../lib/mgpu/gpu-translate.aot"|g' \
  -e 's|"$here/target/gpu-translate-client"|"$here/../lib/mgpu/gpu-translate-client"|g' \
  -e 's|"$here/target/mgpu-llvm-worker"|"$here/../lib/mgpu/mgpu-llvm-worker"|g' \
  -e 's|"$here/target/lib"|"$here/../lib/mgpu/lib"|g' \
  "$root/tools/gpu-translate" >"$prefix/bin/gpu-translate"
chmod 755 "$prefix/bin/gpu-translate"
grep -q 'lib/mgpu/gpu-translate.jar' "$prefix/bin/gpu-translate" && grep -q 'lib/mgpu/gpu-translate-client' "$prefix/bin/gpu-translate" \
  && grep -q 'lib/mgpu/mgpu-llvm-worker' "$prefix/bin/gpu-translate" && grep -q '"$here/../lib/mgpu/lib"' "$prefix/bin/gpu-translate" \
  && ! grep -q '$here/target' "$prefix/bin/gpu-translate" || { echo "make-image: launcher not adapted" >&2; exit 1; }
bash "$root/tools/build-cds-archive.sh" "$prefix/lib/mgpu"
echo "installed mgpu into $prefix"
