// RUN: rm -rf %t.dir && mkdir -p %t.dir && python3 -c "print('mgpu' * 75000)" > %t.bin
// RUN: not bash -c 'ulimit -f 100; gpu-translate --emit=bc --embed big=%t.bin %s -o %t.dir/out.bc' 2>&1 | FileCheck %s
// RUN: not bash -c 'ulimit -f 100; gpu-translate --emit=llvm --embed big=%t.bin %s -o %t.dir/out.ll' 2>&1 | FileCheck %s
// RUN: test -z "$(ls -A %t.dir)"

// An output that cannot be written whole (a full disk; here a file size limit) is a located error, and
// neither the output nor a temporary file is left; LLVM's own file streams ended the process instead.

// CHECK: write-error.mlir:[[# @LINE + 1]]:1: error: Invalid output (must be writable): File too large
module attributes {gpu.container_module} {
  gpu.binary @b [#gpu.object<#nvvm.target, bin = "@file:big">]
  func.func @f() {
    return
  }
}
