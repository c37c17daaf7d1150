// vector.transfer_read into 1-D vectors along a memref's last dimension, the padding where the read passes
// its end, and vector.print of the vectors, as upstream's lowering reads and prints them.
// RUN: gpu-translate --emit=exe --entry-point=main %s -o %t && %t | FileCheck %s --strict-whitespace --match-full-lines
// RUN: gpu-translate --emit=mlir --mlir-print-op-generic %s | gpu-translate --emit=mlir - | FileCheck %s --check-prefix=ROUND

// CHECK:( 11, 12, -1, -1 )
// CHECK-NEXT:( 20, 21 )
// CHECK-NEXT:( 0.5, 1.5, 2.5 )
// ROUND: vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : memref<3x3xi32>, vector<4xi32>
// ROUND: vector.transfer_read %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true]} : memref<3x3xi32>, vector<2xi32>
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %m = memref.alloc() : memref<3x3xi32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %j32 = arith.index_cast %j : index to i32
      %ten = arith.constant 10 : i32
      %t = arith.muli %i32, %ten : i32
      %v = arith.addi %t, %j32 : i32
      memref.store %v, %m[%i, %j] : memref<3x3xi32>
    }
  }
  %pad = arith.constant -1 : i32
  %a = vector.transfer_read %m[%c1, %c1], %pad : memref<3x3xi32>, vector<4xi32>
  vector.print %a : vector<4xi32>
  %b = vector.transfer_read %m[%c2, %c0], %pad {in_bounds = [true]} : memref<3x3xi32>, vector<2xi32>
  vector.print %b : vector<2xi32>
  %f = memref.alloc() : memref<3xf32>
  %h = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %x1 = arith.addf %h, %one : f32
  %x2 = arith.addf %x1, %one : f32
  memref.store %h, %f[%c0] : memref<3xf32>
  memref.store %x1, %f[%c1] : memref<3xf32>
  memref.store %x2, %f[%c2] : memref<3xf32>
  %fpad = arith.constant 0.0 : f32
  %fv = vector.transfer_read %f[%c0], %fpad : memref<3xf32>, vector<3xf32>
  vector.print %fv : vector<3xf32>
  return
}
