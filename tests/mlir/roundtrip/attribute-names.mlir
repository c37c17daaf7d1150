// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir %s | gpu-translate --emit=mlir - | FileCheck %s

// A dictionary key that is not a bare identifier (bare identifiers have no '-') keeps its quotes.

// CHECK: module attributes {gpu.container_module, "test.cmd-options" = "-O3", test.plain_name = 1 : i64}
module attributes {gpu.container_module, "test.cmd-options" = "-O3", test.plain_name = 1} {
  // CHECK: properties = {"ptx-flags" = "--opt"}
  gpu.binary @b [#gpu.object<#nvvm.target, properties = {"ptx-flags" = "--opt"}, "x">]
}
