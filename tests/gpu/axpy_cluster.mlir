// axpy launched with thread-block clusters of 2 blocks (compute capability 9.0 and later).
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#cpu.target, properties = {mgpu.bare_pointers}, "@file:axpy">]

  func.func @run_axpy(%a: f32, %hx: memref<1024xf32>, %hy: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %blocks = arith.constant 4 : index
    %threads = arith.constant 256 : index
    %n = arith.constant 1024 : i32
    %dx = gpu.alloc () : memref<1024xf32>
    %dy = gpu.alloc () : memref<1024xf32>
    gpu.memcpy %dx, %hx : memref<1024xf32>, memref<1024xf32>
    gpu.memcpy %dy, %hy : memref<1024xf32>, memref<1024xf32>
    gpu.launch_func @kernels::@axpy clusters in (%c2, %c1, %c1) blocks in (%blocks, %c1, %c1)
        threads in (%threads, %c1, %c1) args(%a : f32, %dx : memref<1024xf32>, %dy : memref<1024xf32>, %n : i32)
    gpu.memcpy %hy, %dy : memref<1024xf32>, memref<1024xf32>
    gpu.dealloc %dx : memref<1024xf32>
    gpu.dealloc %dy : memref<1024xf32>
    return
  }
}
