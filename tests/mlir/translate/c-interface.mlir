// llvm.emit_c_interface, as upstream's func-to-llvm makes it: a defined function gets _mlir_ciface_NAME, which
// takes each memref as a pointer to its descriptor and a memref result through a pointer in front; a declared
// one is called through the _mlir_ciface_ function that C defines.
// RUN: gpu-translate --emit=llvm %s | FileCheck %s
// RUN: cc -c %S/../../e2e/c-interface/sum.c -o %t.main.o
// RUN: gpu-translate --emit=exe %s %t.main.o -o %t && %t | FileCheck %s --check-prefix=RUNS

// CHECK-LABEL: define internal float @sum(ptr %0, ptr %1, i64 %2, i64 %3, i64 %4)
// CHECK: store { ptr, ptr, i64, [1 x i64], [1 x i64] } %{{[0-9]+}}, ptr %[[SLOT:[0-9]+]]
// CHECK: call float @_mlir_ciface_sum(ptr %[[SLOT]])
// CHECK-LABEL: define void @_mlir_ciface_twice(ptr %0, ptr %1)
// CHECK: %[[D:[0-9]+]] = load { ptr, ptr, i64, [1 x i64], [1 x i64] }, ptr %1
// CHECK: call { ptr, ptr, i64, [1 x i64], [1 x i64] } @twice(
// CHECK: store { ptr, ptr, i64, [1 x i64], [1 x i64] } %{{[0-9]+}}, ptr %0

// RUNS: sum 24, result offset 1 size 3 stride 2, x[5] = 12
func.func private @sum(memref<?xf32, strided<[?], offset: ?>>) -> f32 attributes {llvm.emit_c_interface}

// Doubles each element of the view, then stores their sum (computed in C) in its last one; returns the view.
func.func @twice(%m: memref<?xf32, strided<[?], offset: ?>>) -> memref<?xf32, strided<[?], offset: ?>>
    attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %m, %c0 : memref<?xf32, strided<[?], offset: ?>>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %m[%i] : memref<?xf32, strided<[?], offset: ?>>
    %w = arith.addf %v, %v : f32
    memref.store %w, %m[%i] : memref<?xf32, strided<[?], offset: ?>>
  }
  %s = call @sum(%m) : (memref<?xf32, strided<[?], offset: ?>>) -> f32
  %last = arith.subi %n, %c1 : index
  %half = arith.constant 0.5 : f32
  %h = arith.mulf %s, %half : f32
  memref.store %h, %m[%last] : memref<?xf32, strided<[?], offset: ?>>
  return %m : memref<?xf32, strided<[?], offset: ?>>
}
