// RUN: gpu-translate --emit=mlir %s | FileCheck %s --check-prefix=MLIR
// RUN: gpu-translate %s | FileCheck %s

// No-wrap and fast-math flags, in upstream's syntax, reach LLVM's instructions.

// CHECK-LABEL: define i64 @ints(i64 %0, i64 %1)
func.func @ints(%a: i64, %b: i64) -> i64 {
  // MLIR: arith.addi %arg0, %arg1 overflow<nsw> : i64
  // CHECK: %[[X:.*]] = add nsw i64 %0, %1
  %x = arith.addi %a, %b overflow<nsw> : i64
  // MLIR: arith.muli %{{.*}}, %arg1 overflow<nsw, nuw> : i64
  // CHECK-NEXT: %[[Y:.*]] = mul nuw nsw i64 %[[X]], %1
  %y = arith.muli %x, %b overflow<nuw, nsw> : i64
  // CHECK-NEXT: ret i64 %[[Y]]
  return %y : i64
}

// CHECK-LABEL: define float @floats(float %0, float %1)
func.func @floats(%a: f32, %b: f32) -> f32 {
  // MLIR: arith.addf %arg0, %arg1 fastmath<nnan,ninf> : f32
  // CHECK: %[[X:.*]] = fadd nnan ninf float %0, %1
  %x = arith.addf %a, %b fastmath<ninf, nnan> : f32
  // CHECK-NEXT: %[[Y:.*]] = fmul fast float %[[X]], %1
  %y = arith.mulf %x, %b fastmath<fast> : f32
  return %y : f32
}

// CHECK-LABEL: define i32 @lowered(i32 %0, float %1)
llvm.func @lowered(%a: i32, %f: f32) -> i32 {
  // MLIR: llvm.add %arg0, %arg0 overflow<nuw> : i32
  // CHECK: add nuw i32 %0, %0
  %x = llvm.add %a, %a overflow<nuw> : i32
  // MLIR: llvm.fadd %arg1, %arg1 {fastmathFlags = #llvm.fastmath<contract>} : f32
  // CHECK: fadd contract float %1, %1
  %g = llvm.fadd %f, %f {fastmathFlags = #llvm.fastmath<contract>} : f32
  llvm.return %x : i32
}
