// RUN: gpu-translate %s | FileCheck %s
// RUN: gpu-translate --emit=obj %s -o %t.o
// RUN: nm %t.o | FileCheck %s --check-prefix=OBJ

// llvm.mlir.global on the host: a global of LLVM's with the same linkage, constness and initial value,
// whose address llvm.mlir.addressof takes.

// CHECK-DAG: @scale = internal constant float 3.000000e+00
// CHECK-DAG: @count = global i32 7
// In the object: @count exported data, @scale local read-only data.
// OBJ-DAG: D count
// OBJ-DAG: r scale
// CHECK-LABEL: define float @scaled(float %0)
// CHECK: load float, ptr @scale
module {
  llvm.mlir.global internal constant @scale(3.0 : f32) : f32
  llvm.mlir.global external @count(7 : i32) : i32
  func.func @scaled(%x: f32) -> f32 {
    %p = llvm.mlir.addressof @scale : !llvm.ptr
    %s = llvm.load %p : !llvm.ptr -> f32
    %r = arith.mulf %x, %s : f32
    return %r : f32
  }
  func.func @counter() -> !llvm.ptr {
    %p = llvm.mlir.addressof @count : !llvm.ptr
    return %p : !llvm.ptr
  }
}
