// RUN: not gpu-translate --emit=mlir %s 2>&1 | FileCheck %s
// RUN: not gpu-translate --emit=mlir %s -o %t.mlir && test ! -e %t.mlir
// CHECK: truncated.mlir:[[@LINE+4]]:1: error: Invalid syntax (must be '}'): end of input
module {
  func.func @f() {
    return
