// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir %s | gpu-translate --emit=mlir - | FileCheck %s

// Constants print as upstream prints them: signless integers as signed values of their width, floats in
// their own width (NaN and infinities as the type's bits), rounded to the type's precision.

func.func @f() {
  // CHECK: arith.constant -1 : i8
  %a = arith.constant 255 : i8
  // CHECK: arith.constant -1 : i8
  %b = arith.constant 0xFF : i8
  // CHECK: arith.constant -9223372036854775808 : i64
  %c = arith.constant -9223372036854775808 : i64
  // CHECK: arith.constant -1 : i64
  %d = arith.constant 18446744073709551615 : i64
  // CHECK: arith.constant 0x7FC00000 : f32
  %e = arith.constant 0x7FC00000 : f32
  // CHECK: arith.constant 0x7F800000 : f32
  %f = arith.constant 1.0e40 : f32
  // CHECK: arith.constant 0xFF800000 : f32
  %g = arith.constant 0xFF800000 : f32
  // CHECK: arith.constant 0x7C00 : f16
  %h = arith.constant 0x7C00 : f16
  // CHECK: arith.constant 3.500000e+00 : bf16
  %i = arith.constant 3.5 : bf16
  // CHECK: arith.constant 1.000000e-01 : f32
  %j = arith.constant 0.1 : f32
  // CHECK: arith.constant -0.000000e+00 : f32
  %k = arith.constant -0.0 : f32
  // CHECK: arith.constant 0x7FF8000000000000 : f64
  %l = arith.constant 0x7FF8000000000000 : f64
  // CHECK: arith.constant true
  %m = arith.constant 1 : i1
  return
}

// A zero dimension: "0xf32" is the dimension 0 and the element type f32, not a hexadecimal number.
// CHECK-LABEL: func.func @zero(%arg0: memref<0xf32>)
func.func @zero(%m: memref<0xf32>) {
  return
}
