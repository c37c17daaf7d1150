// REQUIRES: mlir-opt-22
// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir %s | mlir-opt-22 | gpu-translate --emit=mlir | FileCheck %s --check-prefix=BACK
// RUN: mlir-opt-22 --ensure-debug-info-scope-on-llvm-func --mlir-print-debuginfo %s | gpu-translate -g --emit=llvm | FileCheck %s --check-prefix=LINES

// The #llvm.di_* attributes and distinct[N]<...> read and print back (aliases written out in place), and
// upstream reads what we print. A module that mlir-opt-22 has given subprogram scopes still translates
// with -g: the line tables come from the locations.

#file = #llvm.di_file<"kernels.mlir" in "/src">
#cu = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C, file = #file, producer = "mgpu", isOptimized = false, emissionKind = LineTablesOnly>
#i32 = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int", sizeInBits = 32, encoding = DW_ATE_signed>
#fn = #llvm.di_subroutine_type<callingConvention = DW_CC_normal, types = #i32, #i32>
#sp = #llvm.di_subprogram<id = distinct[1]<>, compileUnit = #cu, scope = #file, name = "twice", file = #file, line = 7, scopeLine = 7, subprogramFlags = "Definition", type = #fn>
#frag = #llvm.di_expression<[DW_OP_LLVM_fragment(0, 16)]>

// CHECK: module attributes {test.frag = #llvm.di_expression<[DW_OP_LLVM_fragment(0, 16)]>, test.other = distinct[4]<"tag">,
// CHECK-SAME: test.sp = #llvm.di_subprogram<id = distinct[1]<>, compileUnit = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C, file = #llvm.di_file<"kernels.mlir" in "/src">, producer = "mgpu", isOptimized = false, emissionKind = LineTablesOnly>,
// CHECK-SAME: line = 7, scopeLine = 7, subprogramFlags = "Definition", type = #llvm.di_subroutine_type<callingConvention = DW_CC_normal, types = #llvm.di_basic_type<tag = DW_TAG_base_type, name = "int", sizeInBits = 32, encoding = DW_ATE_signed>, #llvm.di_basic_type<{{.*}}>>>}
// BACK: test.frag = #llvm.di_expression<[DW_OP_LLVM_fragment(0, 16)]>
// BACK-SAME: test.other = distinct[{{[0-9]+}}]<"tag">
// BACK-SAME: name = "twice"
module attributes {test.sp = #sp, test.frag = #frag, test.other = distinct[4]<"tag">} {
  // LINES: define i64 @twice(i64 %0) !dbg ![[SP:[0-9]+]]
  // LINES: add i64 %0, %0, !dbg ![[L:[0-9]+]]
  // LINES: define i64 @scoped(i64 %0) !dbg
  // LINES: ![[SP]] = distinct !DISubprogram(name: "twice", linkageName: "twice", scope: ![[F:[0-9]+]], file: ![[F]], line: [[# @LINE + 3]]
  // LINES: ![[L]] = !DILocation(line: [[# @LINE + 3]], column: 10, scope: ![[SP]])
  // The subprogram scope that mlir-opt-22 adds is a fused location with #llvm.di_subprogram metadata.
  llvm.func @twice(%a: i64) -> i64 {
    %0 = llvm.add %a, %a : i64
    llvm.return %0 : i64
  }
  // CHECK: llvm.func @scoped
  llvm.func @scoped(%a: i64) -> i64 {
    llvm.return %a : i64
  } loc(fused<#sp>["kernels.mlir":7:3])
}
