#!/usr/bin/env bash
# Writes target/gpu-translate.jsa, the class-data-sharing archive that tools/gpu-translate maps: the classes
# that CdsTraining's runs of the CLI load. Maven runs this after packaging the jar. A JVM that cannot write
# such an archive (one without a base archive) gets none, and the launcher runs without it; a training run
# that fails fails the build.
# With a JDK of 25 or later (JAVA_HOME's java, as the launcher runs it), it also writes target/gpu-translate.aot,
# that JDK's AOT cache of the same training runs, which the launcher maps instead (it starts faster).
# usage: tools/build-cds-archive.sh TARGET_DIR
set -euo pipefail
target="$1"
archive="$target/gpu-translate.jsa"
java=java
if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
  java="$JAVA_HOME/bin/java"
fi
quiet=(-Xlog:cds=off -Xlog:cds+dynamic=off)
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
if ! "$java" -XX:+UseSerialGC "${quiet[@]}" -XX:ArchiveClassesAtExit="$probe/probe.jsa" -version >/dev/null 2>&1; then
  echo "gpu-translate: this JVM cannot write a class-data-sharing archive; the launcher runs without one"
  rm -f "$archive"
  exit 0
fi
# The training runs' kernels go to the worker program that the launcher names, as a run's do, so that the
# archive holds the classes that talk to it.
worker=()
if [[ -x "$target/mgpu-llvm-worker" ]]; then
  worker=(-Dmgpu.llvm.worker="$target/mgpu-llvm-worker" -Dmgpu.llvm.direct=true)
fi
"$java" -XX:+UseSerialGC "${quiet[@]}" -XX:ArchiveClassesAtExit="$archive" "${worker[@]}" \
  -cp "$target/gpu-translate.jar" dev.mgpu.tools.CdsTraining
aot="$target/gpu-translate.aot"
rm -f "$aot"
version="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
if [[ $version =~ ^[0-9]+$ ]] && (( version >= 25 )); then
  "$java" -XX:+UseSerialGC -Xlog:aot=off -Xlog:cds=off --enable-native-access=ALL-UNNAMED \
    -XX:AOTCacheOutput="$aot" "${worker[@]}" -cp "$target/gpu-translate.jar" dev.mgpu.tools.CdsTraining >/dev/null
fi
