// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir %s | gpu-translate --emit=mlir - | FileCheck %s

// Inside an array, an i64 integer and a decimal f64 float print without their types, as upstream prints
// them (the parser assumes those types there); other types, and a float in hexadecimal, keep theirs. Outside
// an array the type is always printed.

// CHECK: attributes {a = [1.500000e+00, 2, 3 : i32, 2.500000e+00 : f32, 0x7FF8000000000000 : f64, [-9223372036854775808]], b = 4 : i64, c = 1.500000e+00 : f64}
func.func @f() attributes {a = [1.5 : f64, 2 : i64, 3 : i32, 2.5 : f32, 0x7FF8000000000000 : f64, [-9223372036854775808 : i64]], b = 4 : i64, c = 1.5 : f64} {
  return
}
