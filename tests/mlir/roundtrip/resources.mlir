// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir %s | gpu-translate --emit=mlir - | FileCheck %s

// A file's resource section, and dense_resource references to it, come through a round trip.

// CHECK: func.func @f() attributes {test.table = dense_resource<table> : tensor<3xi64>}
func.func @f() attributes {test.table = dense_resource<table> : tensor<3xi64>} {
  return
}

// CHECK: {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       table: "0x08000000010000000000000002000000000000000300000000000000"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}
{-#
  dialect_resources: {
    builtin: {
      table: "0x08000000010000000000000002000000000000000300000000000000"
    }
  }
#-}
