#!/usr/bin/env bash
# Writes target/gpu-translate.jsa, the class-data-sharing archive that tools/gpu-translate maps: the classes
# that CdsTraining's runs of the CLI load. Maven runs this after packaging the jar. A JVM that cannot write
# such an archive gets none, and the launcher runs without it; a training run that fails fails the build.
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
probe="$(mktemp -d)"
trap 'rm -rf "$probe"' EXIT
# The training runs' kernels go to the worker program that the launcher names, as a run's do, so that the
# archive holds the classes that talk to it.
worker=()
if [[ -x "$target/mgpu-llvm-worker" ]]; then
  worker=(-Dmgpu.llvm.worker="$target/mgpu-llvm-worker" -Dmgpu.llvm.direct=true)
fi
# One static archive of the JDK's classes and mgpu's that the training runs load, listed by the runs: it maps
# in place of the JDK's own archive and a second, dynamic one over it, and holds fewer of the JDK's classes
# (the JVM relocates every archive it maps, page by page): one sm_90 kernel to PTX took 0.94x the time, 20,000
# launches to MLIR 0.95x, a host object 0.98x (paired medians of 21, 15, 15), each with 3 MiB less at its peak.
rm -f "$archive"
if ! "$java" -XX:+UseSerialGC -Xlog:cds=off -XX:DumpLoadedClassList="$probe/probe.lst" -version >/dev/null 2>&1; then
  echo "gpu-translate: this JVM cannot write a class-data-sharing archive; the launcher runs without one"
else
  "$java" -XX:+UseSerialGC -Xlog:cds=off -XX:DumpLoadedClassList="$probe/classes.lst" "${worker[@]}" \
    -cp "$target/gpu-translate.jar" dev.mgpu.tools.CdsTraining
  # Kept only where this JVM then maps it: one it refuses would turn class-data sharing off altogether.
  if ! { "$java" -XX:+UseSerialGC -Xlog:cds=off -Xshare:dump -XX:SharedClassListFile="$probe/classes.lst" \
      -XX:SharedArchiveFile="$archive" -cp "$target/gpu-translate.jar" \
      && "$java" -XX:+UseSerialGC -Xshare:on -XX:SharedArchiveFile="$archive" -cp "$target/gpu-translate.jar" \
        -version; } >"$probe/dump.log" 2>&1; then
    tail -n 3 "$probe/dump.log" | sed 's/^/gpu-translate: no class-data archive, the launcher runs without one: /'
    rm -f "$archive"
  fi
fi
aot="$target/gpu-translate.aot"
rm -f "$aot"
version="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')"
if [[ $version =~ ^[0-9]+$ ]] && (( version >= 25 )); then
  "$java" -XX:+UseSerialGC -Xlog:aot=off -Xlog:cds=off --enable-native-access=ALL-UNNAMED \
    -XX:AOTCacheOutput="$aot" "${worker[@]}" -cp "$target/gpu-translate.jar" dev.mgpu.tools.CdsTraining >/dev/null
fi
