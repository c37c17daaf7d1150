// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir %s | gpu-translate --emit=mlir - | FileCheck %s
// RUN: gpu-translate --emit=llvm %s | FileCheck %s --check-prefix=IR

// Float constants print digit for digit as upstream prints them. Six digits after the point when they read
// back to the same value; they come from LLVM's conversion, which cuts the exact value short before it
// rounds, so an f16 0.1 (0.0999755859375) is 9.997550e-02, not the correctly rounded 9.997559e-02.
// Where six digits do not read back, LLVM's default form; a NaN keeps its bits, signalling ones too.

func.func @f() {
  // CHECK: arith.constant 9.997550e-02 : f16
  %a = arith.constant 0.1 : f16
  // CHECK: arith.constant 1.000980e-01 : bf16
  %b = arith.constant 0.1 : bf16
  // CHECK: arith.constant 3.330080e-01 : f16
  %c = arith.constant 0.333 : f16
  // CHECK: arith.constant 1.192090e-07 : f16
  %d = arith.constant 1.0e-7 : f16
  // CHECK: arith.constant 9.999940e-41 : f32
  %e = arith.constant 1.0e-40 : f32
  // CHECK: arith.constant 1.998900e-03 : bf16
  %f = arith.constant 2.0e-3 : bf16
  // CHECK: arith.constant 123456.789 : f32
  %g = arith.constant 123456.789 : f32
  // CHECK: arith.constant 6.9999999999999995E+100 : f64
  %h = arith.constant 7.0e100 : f64
  // CHECK: arith.constant -0.000000e+00 : f16
  %i = arith.constant -0.0 : f16
  // CHECK: arith.constant 0x7D21 : f16
  %j = arith.constant 0x7D21 : f16
  // CHECK: arith.constant 0xFFA1 : bf16
  %k = arith.constant 0xFFA1 : bf16
  // CHECK: arith.constant 0x7FA00001 : f32
  %l = arith.constant 0x7FA00001 : f32
  return
}

// IR: @snan = internal constant float 0x7FF4000000000000
llvm.mlir.global internal constant @snan(0x7FA00000 : f32) : f32

// IR-LABEL: define half @quiet()
// IR: ret half 0xH7D21
llvm.func @quiet() -> f16 {
  %n = llvm.mlir.constant(0x7D21 : f16) : f16
  llvm.return %n : f16
}
