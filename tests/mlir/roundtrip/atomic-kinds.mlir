// Each kind of memref.atomic_rmw has upstream's number in the generic form: upstream reads our generic print
// back as the same kinds (its AtomicRMWKind: addf 0, addi 1, andi 2, assign 3, maximumf 4, maxnumf 5, maxs 6,
// maxu 7, minimumf 8, minnumf 9, mins 10, minu 11, mulf 12, muli 13, ori 14, xori 15).
// RUN: gpu-translate --emit=mlir --mlir-print-op-generic %s | mlir-opt-22 | FileCheck %s
// CHECK: memref.atomic_rmw addf 
// CHECK: memref.atomic_rmw maximumf 
// CHECK: memref.atomic_rmw maxnumf 
// CHECK: memref.atomic_rmw minimumf 
// CHECK: memref.atomic_rmw minnumf 
// CHECK: memref.atomic_rmw mulf 
// CHECK: memref.atomic_rmw addi 
// CHECK: memref.atomic_rmw andi 
// CHECK: memref.atomic_rmw assign 
// CHECK: memref.atomic_rmw maxs 
// CHECK: memref.atomic_rmw maxu 
// CHECK: memref.atomic_rmw mins 
// CHECK: memref.atomic_rmw minu 
// CHECK: memref.atomic_rmw muli 
// CHECK: memref.atomic_rmw ori 
// CHECK: memref.atomic_rmw xori 
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<4xf32>, %b: memref<4xi32>, %x: f32, %y: i32, %i: index) kernel {
      %f0 = memref.atomic_rmw addf %x, %a[%i] : (f32, memref<4xf32>) -> f32
      %f1 = memref.atomic_rmw maximumf %x, %a[%i] : (f32, memref<4xf32>) -> f32
      %f2 = memref.atomic_rmw maxnumf %x, %a[%i] : (f32, memref<4xf32>) -> f32
      %f3 = memref.atomic_rmw minimumf %x, %a[%i] : (f32, memref<4xf32>) -> f32
      %f4 = memref.atomic_rmw minnumf %x, %a[%i] : (f32, memref<4xf32>) -> f32
      %f5 = memref.atomic_rmw mulf %x, %a[%i] : (f32, memref<4xf32>) -> f32
      %i6 = memref.atomic_rmw addi %y, %b[%i] : (i32, memref<4xi32>) -> i32
      %i7 = memref.atomic_rmw andi %y, %b[%i] : (i32, memref<4xi32>) -> i32
      %i8 = memref.atomic_rmw assign %y, %b[%i] : (i32, memref<4xi32>) -> i32
      %i9 = memref.atomic_rmw maxs %y, %b[%i] : (i32, memref<4xi32>) -> i32
      %i10 = memref.atomic_rmw maxu %y, %b[%i] : (i32, memref<4xi32>) -> i32
      %i11 = memref.atomic_rmw mins %y, %b[%i] : (i32, memref<4xi32>) -> i32
      %i12 = memref.atomic_rmw minu %y, %b[%i] : (i32, memref<4xi32>) -> i32
      %i13 = memref.atomic_rmw muli %y, %b[%i] : (i32, memref<4xi32>) -> i32
      %i14 = memref.atomic_rmw ori %y, %b[%i] : (i32, memref<4xi32>) -> i32
      %i15 = memref.atomic_rmw xori %y, %b[%i] : (i32, memref<4xi32>) -> i32
      gpu.return
    }
  }
}
