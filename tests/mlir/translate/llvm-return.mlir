// RUN: gpu-translate --emit=llvm %s | FileCheck %s

// llvm.return may end a func.func, as upstream takes it (a program partly lowered to the llvm dialect has
// them), and is translated as its func.return would be.

// CHECK-LABEL: define i32 @answer(i32 %0)
// CHECK-NEXT:    %[[S:.*]] = add i32 %0, 42
// CHECK-NEXT:    ret i32 %[[S]]
func.func @answer(%x: i32) -> i32 {
  %c = llvm.mlir.constant(42 : i32) : i32
  %s = llvm.add %x, %c : i32
  llvm.return %s : i32
}

// CHECK-LABEL: define void @nothing()
// CHECK-NEXT:    ret void
func.func @nothing() {
  llvm.return
}
