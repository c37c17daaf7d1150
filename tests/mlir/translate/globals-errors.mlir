// RUN: not gpu-translate --split-input-file --emit=obj %s -o %t.o 2>&1 | FileCheck %s
// RUN: not ls %t.o

// llvm.mlir.global on the host that translation cannot take: located errors, and no output.

// The address of a global in address space 3 is a !llvm.ptr<3>.
// CHECK: globals-errors.mlir:[[# @LINE + 4]]:10: error: Invalid llvm.mlir.addressof of @shared (must have the type of a pointer to the global, !llvm.ptr<3>): !llvm.ptr
module {
  llvm.mlir.global internal @shared() {addr_space = 3 : i32} : f32
  func.func @f() -> !llvm.ptr {
    %p = llvm.mlir.addressof @shared : !llvm.ptr
    return %p : !llvm.ptr
  }
}

// -----

// CHECK: globals-errors.mlir:[[# @LINE + 2]]:3: error: Invalid initial value of llvm.mlir.global (must be an integer or float of its type): "abc"
module {
  llvm.mlir.global internal constant @text("abc") : !llvm.array<3 x i8>
}
