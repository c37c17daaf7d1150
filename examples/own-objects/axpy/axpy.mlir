// axpy host program: copies x and y to the device, runs y = a * x + y there, and copies y back.
// The kernel blob is embedded from a file: gpu-translate --embed axpy=<object>.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#cpu.target, properties = {mgpu.bare_pointers}, "@file:axpy">]

  func.func @run_axpy(%a: f32, %hx: memref<1024xf32>, %hy: memref<1024xf32>) {
    %c1 = arith.constant 1 : index
    %blocks = arith.constant 4 : index
    %threads = arith.constant 256 : index
    %n = arith.constant 1024 : i32
    %t0 = gpu.wait async
    %dx, %t1 = gpu.alloc async [%t0] () : memref<1024xf32>
    %dy, %t2 = gpu.alloc async [%t1] () : memref<1024xf32>
    %t3 = gpu.memcpy async [%t2] %dx, %hx : memref<1024xf32>, memref<1024xf32>
    %t4 = gpu.memcpy async [%t3] %dy, %hy : memref<1024xf32>, memref<1024xf32>
    %t5 = gpu.launch_func async [%t4] @kernels::@axpy blocks in (%blocks, %c1, %c1) threads in (%threads, %c1, %c1)
        args(%a : f32, %dx : memref<1024xf32>, %dy : memref<1024xf32>, %n : i32)
    %t6 = gpu.memcpy async [%t5] %hy, %dy : memref<1024xf32>, memref<1024xf32>
    %t7 = gpu.dealloc async [%t6] %dx : memref<1024xf32>
    %t8 = gpu.dealloc async [%t7] %dy : memref<1024xf32>
    gpu.wait [%t8]
    return
  }
}
