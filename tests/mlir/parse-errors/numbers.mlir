// RUN: not gpu-translate --split-input-file --emit=mlir %s 2>&1 | FileCheck %s

// Constants that do not fit their type are errors at the number, as upstream reports them; nothing wraps.

func.func @f() {
  %c = arith.constant 256 : i8
  return
}
// CHECK: numbers.mlir:[[@LINE-3]]:23: error: Invalid integer constant (must fit in i8, -128 to 255): 256

// -----

func.func @f() {
  %c = arith.constant -129 : i8
  return
}
// CHECK: numbers.mlir:[[@LINE-3]]:24: error: Invalid integer constant (must fit in i8, -128 to 255): -129

// -----

func.func @f() {
  %c = arith.constant 18446744073709551616 : i64
  return
}
// CHECK: numbers.mlir:[[@LINE-3]]:23: error: Invalid integer constant (must fit in i64, -9223372036854775808 to 18446744073709551615): 18446744073709551616

// -----

func.func @f() {
  %c = arith.constant 0x7FF8000000000000 : f32
  return
}
// CHECK: numbers.mlir:[[@LINE-3]]:23: error: Invalid hexadecimal float constant (must fit in the 32 bits of f32): 0x7FF8000000000000

// -----

func.func @f() {
  %c = arith.constant 1 : f32
  return
}
// CHECK: numbers.mlir:[[@LINE-3]]:23: error: Invalid float constant (must have a decimal point, an exponent or hexadecimal bits, not a decimal integer): 1

// -----

gpu.binary @b [#gpu.object<#nvvm.target<O = 99999999999 : i32>, "">]
// CHECK: numbers.mlir:[[@LINE-1]]:{{[0-9]+}}: error: Invalid integer constant (must fit in i32, -2147483648 to 4294967295): 99999999999

// -----

gpu.binary @b [#gpu.object<#nvvm.target<O = 7>, "">]
// CHECK: numbers.mlir:[[@LINE-1]]:{{[0-9]+}}: error: Invalid parameter O (must be an optimisation level from 0 to 3): 7

// -----

gpu.binary @b [#gpu.object<#nvvm.target, properties = {n = 0xr}, "">]
// CHECK: numbers.mlir:[[@LINE-1]]:{{[0-9]+}}: error: Invalid integer (must have hexadecimal digits after 0x): 0x
