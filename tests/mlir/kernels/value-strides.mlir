// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=offload --kernel-bare-ptr-calling-convention %s > %t.mlir
// RUN: gpu-object sm_90 < %t.mlir | llvm-dis-22 | FileCheck %s

// A subview whose strides are values compiles in a kernel: only static strides must be positive (a value
// was taken for a static stride, the dynamic marker, and refused as -9223372036854775808). A cast to the
// strides the caller knows then reads through the view: the view starts at m[row][2], and w[1][1] is 16 + 2
// floats, 72 bytes, further. (With bare pointers: one pointer a memref.)

// CHECK-LABEL: define ptx_kernel void @every_other(ptr {{.*}}%0, i64 %1, i64 %2, ptr {{.*}}%3)
// CHECK:         %[[ROW:.*]] = shl nuw nsw i64 %1, 3
// CHECK-NEXT:    %[[AT:.*]] = or disjoint i64 %[[ROW]], 2
// CHECK-NEXT:    %[[W:.*]] = getelementptr inbounds nuw float, ptr %0, i64 %[[AT]]
// CHECK-NEXT:    %[[A:.*]] = load float, ptr %[[W]], align 4
// CHECK-NEXT:    %[[W11:.*]] = getelementptr inbounds nuw i8, ptr %[[W]], i64 72
// CHECK-NEXT:    %[[B:.*]] = load float, ptr %[[W11]], align 4
// CHECK-NEXT:    store float %[[A]], ptr %3, align 4
gpu.module @views [#nvvm.target<chip = "sm_90">] {
  gpu.func @every_other(%m: memref<8x8xf32>, %row: index, %step: index, %out: memref<2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = memref.subview %m[%row, 2] [2, 2] [%step, %step] : memref<8x8xf32> to memref<2x2xf32, strided<[?, ?], offset: ?>>
    %w = memref.cast %v : memref<2x2xf32, strided<[?, ?], offset: ?>> to memref<2x2xf32, strided<[16, 2], offset: ?>>
    %a = memref.load %w[%c0, %c0] : memref<2x2xf32, strided<[16, 2], offset: ?>>
    %b = memref.load %w[%c1, %c1] : memref<2x2xf32, strided<[16, 2], offset: ?>>
    memref.store %a, %out[%c0] : memref<2xf32>
    memref.store %b, %out[%c1] : memref<2xf32>
    gpu.return
  }
}
