// RUN: gpu-translate --emit=mlir --outline-kernels %s | FileCheck %s
// RUN: gpu-translate --emit=mlir --outline-kernels %s | sed 's/ \[#cpu.target\]//' | mlir-opt-22 > %t.ours
// RUN: mlir-opt-22 %s -gpu-launch-sink-index-computations -gpu-kernel-outlining > %t.upstream
// RUN: diff %t.ours %t.upstream
// REQUIRES: mlir-opt-22

// Which gpu.module an outlined launch goes to, as upstream's gpu-kernel-outlining decides: module(@M) that
// exists takes the kernel in, with its own targets (a name it has already gets _0); without module(@M), the
// module is named after the kernel, function(@F) or the host function's name with _kernel. Apart from the
// targets mgpu gives a new module, the result is upstream's.

// CHECK: gpu.module @m [#nvvm.target<chip = "sm_90">] {
// CHECK:   gpu.func @existing() kernel
// CHECK:   gpu.func @f(
// CHECK:   gpu.func @existing_0(
// CHECK: func.func @host(
// CHECK:   gpu.launch_func @m::@f blocks
// CHECK:   gpu.launch_func @g::@g blocks
// CHECK:   gpu.launch_func @m::@existing_0 blocks
// CHECK:   gpu.launch_func @host_kernel::@host_kernel blocks
// CHECK: gpu.module @g [#cpu.target] {
// CHECK:   gpu.func @g(
// CHECK: gpu.module @host_kernel [#cpu.target] {
// CHECK:   gpu.func @host_kernel(
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    gpu.func @existing() kernel {
      gpu.return
    }
  }
  func.func @host(%out: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c4, %b = %c1, %c = %c1) module(@m) function(@f) {
      %v = arith.constant 1.0 : f32
      memref.store %v, %out[%tx] : memref<4xf32>
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c4, %b = %c1, %c = %c1) function(@g) {
      %v = arith.constant 2.0 : f32
      memref.store %v, %out[%tx] : memref<4xf32>
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c4, %b = %c1, %c = %c1) module(@m) function(@existing) {
      %v = arith.constant 3.0 : f32
      memref.store %v, %out[%tx] : memref<4xf32>
      gpu.terminator
    }
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c4, %b = %c1, %c = %c1) {
      %v = arith.constant 4.0 : f32
      memref.store %v, %out[%tx] : memref<4xf32>
      gpu.terminator
    }
    return
  }
}
