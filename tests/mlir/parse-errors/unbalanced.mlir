// RUN: not gpu-translate --emit=mlir %s 2>&1 | FileCheck %s
module {
  gpu.binary @b [#gpu.object<#nvvm.target, "">
}
// CHECK: unbalanced.mlir:[[@LINE-1]]:1: error: Invalid syntax (must be ']'): '}'
