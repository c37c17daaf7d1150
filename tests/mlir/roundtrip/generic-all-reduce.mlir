// REQUIRES: mlir-opt-22
// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir --mlir-print-op-generic %s | gpu-translate --emit=mlir - | FileCheck %s
// RUN: mlir-opt-22 --mlir-print-op-generic %s | gpu-translate --emit=mlir - | FileCheck %s

// gpu.all_reduce in the generic form, as upstream and mgpu print it: an empty region for a reduction by
// op, and values of the enclosing function used after it (the parser used to leave the empty region's
// scope open, so that later uses of %v and %n were undefined).

// CHECK-LABEL: gpu.func @sums(%arg0: f32, %arg1: i32, %arg2: memref<2xf32>) kernel {
// CHECK:         %0 = gpu.all_reduce add %arg0 {
// CHECK-NEXT:    } : (f32) -> f32
// CHECK-NEXT:    %1 = gpu.all_reduce and %arg1 uniform {
// CHECK-NEXT:    } : (i32) -> i32
// CHECK-NEXT:    %2 = gpu.all_reduce %arg0 {
// CHECK-NEXT:    ^bb0(%arg3: f32, %arg4: f32):
// CHECK-NEXT:      %4 = arith.maximumf %arg3, %arg4 : f32
// CHECK-NEXT:      gpu.yield %4 : f32
// CHECK-NEXT:    } : (f32) -> f32
// CHECK-NEXT:    %3 = arith.addf %0, %2 : f32
gpu.module @reductions {
  gpu.func @sums(%v: f32, %n: i32, %out: memref<2xf32>) kernel {
    %sum = "gpu.all_reduce"(%v) <{op = #gpu<all_reduce_op add>}> ({
    }) : (f32) -> f32
    %bits = "gpu.all_reduce"(%n) <{op = #gpu<all_reduce_op and>, uniform}> ({
    }) : (i32) -> i32
    %top = "gpu.all_reduce"(%v) ({
    ^bb0(%l: f32, %r: f32):
      %m = "arith.maximumf"(%l, %r) : (f32, f32) -> f32
      "gpu.yield"(%m) : (f32) -> ()
    }) : (f32) -> f32
    %both = arith.addf %sum, %top : f32
    %c0 = arith.constant 0 : index
    memref.store %both, %out[%c0] : memref<2xf32>
    gpu.return
  }
}
