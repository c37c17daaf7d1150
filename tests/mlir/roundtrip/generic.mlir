// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC
// RUN: gpu-translate --emit=mlir --mlir-print-op-generic %s | gpu-translate --emit=mlir - | FileCheck %s

// The generic op form parses for every op and means the same as the custom form.

"builtin.module"() ({
  "gpu.binary"() <{objects = [#gpu.object<#nvvm.target, "AB">], offloadingHandler = #gpu.select_object<0>, sym_name = "bin"}> : () -> ()
  "func.func"() <{function_type = (index) -> (), sym_name = "main"}> ({
  ^bb0(%arg0: index):
    %0 = "gpu.wait"() : () -> !gpu.async.token
    "gpu.launch_func"(%0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg0) <{kernel = @bin::@k, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (!gpu.async.token, index, index, index, index, index, index) -> ()
    "func.return"() : () -> ()
  }) : () -> ()
}) {gpu.container_module} : () -> ()

// CHECK: module attributes {gpu.container_module} {
// CHECK:   gpu.binary @bin <#gpu.select_object<0 : i64>> [#gpu.object<#nvvm.target, "AB">]
// CHECK:   func.func @main(%arg0: index) {
// CHECK:     %0 = gpu.wait async
// CHECK:     gpu.launch_func [%0] @bin::@k blocks in (%arg0, %arg0, %arg0) threads in (%arg0, %arg0, %arg0)
// CHECK:     return

// GENERIC: "builtin.module"() ({
// GENERIC: "gpu.binary"() <{objects = [#gpu.object<#nvvm.target, "AB">], offloadingHandler = #gpu.select_object<0 : i64>, sym_name = "bin"}> : () -> ()
// GENERIC: "gpu.launch_func"(%0, %arg0, %arg0, %arg0, %arg0, %arg0, %arg0) <{kernel = @bin::@k, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (!gpu.async.token, index, index, index, index, index, index) -> ()
// GENERIC: }) {gpu.container_module} : () -> ()
