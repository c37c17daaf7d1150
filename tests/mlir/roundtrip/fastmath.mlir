// REQUIRES: mlir-opt-22
// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC
// RUN: mlir-opt-22 %s | FileCheck %s

// Fast-math flags print as upstream prints them: arith's joined by a comma alone and in arith's order,
// llvm's by a comma and a space and in LLVM's order; all seven flags are `fast`, and `fast` with others
// is `fast` alone; an llvm op's empty set is its default, left out.

// CHECK-LABEL: func.func @flags(%arg0: f32, %arg1: f32) -> f32 {
// CHECK-NEXT:    %0 = arith.addf %arg0, %arg1 fastmath<nnan,ninf> : f32
// CHECK-NEXT:    %1 = arith.mulf %0, %arg1 fastmath<reassoc,nsz,afn> : f32
// CHECK-NEXT:    %2 = arith.subf %1, %arg1 fastmath<fast> : f32
// CHECK-NEXT:    %3 = arith.divf %2, %arg1 fastmath<fast> : f32
// CHECK-NEXT:    %4 = math.sqrt %3 fastmath<arcp,contract> : f32
// CHECK-NEXT:    %5 = arith.cmpf olt, %4, %arg1 fastmath<nnan,ninf> : f32
// CHECK-NEXT:    %6 = llvm.fadd %4, %arg1 {fastmathFlags = #llvm.fastmath<ninf, afn, reassoc>} : f32
// CHECK-NEXT:    %7 = llvm.fmul %6, %arg1 {fastmathFlags = #llvm.fastmath<fast>} : f32
// CHECK-NEXT:    %8 = llvm.fsub %7, %arg1 : f32
// GENERIC: "arith.addf"(%arg0, %arg1) <{fastmath = #arith.fastmath<nnan,ninf>}> : (f32, f32) -> f32
// GENERIC: "arith.subf"(%1, %arg1) <{fastmath = #arith.fastmath<fast>}> : (f32, f32) -> f32
// GENERIC: "llvm.fadd"(%4, %arg1) <{fastmathFlags = #llvm.fastmath<ninf, afn, reassoc>}> : (f32, f32) -> f32
// GENERIC: "llvm.fsub"(%7, %arg1) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32) -> f32
func.func @flags(%a: f32, %b: f32) -> f32 {
  %0 = arith.addf %a, %b fastmath<ninf, nnan> : f32
  %1 = arith.mulf %0, %b fastmath<afn, nsz, reassoc> : f32
  %2 = arith.subf %1, %b fastmath<nnan, ninf, nsz, arcp, contract, afn, reassoc> : f32
  %3 = arith.divf %2, %b fastmath<fast, nnan> : f32
  %4 = math.sqrt %3 fastmath<contract, arcp> : f32
  %5 = arith.cmpf olt, %4, %b fastmath<ninf,nnan> : f32
  %6 = llvm.fadd %4, %b {fastmathFlags = #llvm.fastmath<reassoc, ninf, afn>} : f32
  %7 = llvm.fmul %6, %b {fastmathFlags = #llvm.fastmath<reassoc, nnan, ninf, nsz, arcp, contract, afn>} : f32
  %8 = llvm.fsub %7, %b {fastmathFlags = #llvm.fastmath<none>} : f32
  return %8 : f32
}
