// 2-D stencil host program: a 96x80 grid, 16x16 blocks on a 5x6 grid of blocks, two steps ping-ponging
// between two device buffers.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#cpu.target, properties = {mgpu.bare_pointers}, "@file:stencil">]

  func.func @run_stencil(%host: memref<96x80xf32>) {
    %c1 = arith.constant 1 : index
    %bx = arith.constant 5 : index
    %by = arith.constant 6 : index
    %t16 = arith.constant 16 : index
    %rows = arith.constant 96 : i32
    %cols = arith.constant 80 : i32
    %t0 = gpu.wait async
    %a, %t1 = gpu.alloc async [%t0] () : memref<96x80xf32>
    %b, %t2 = gpu.alloc async [%t0] () : memref<96x80xf32>
    %t3 = gpu.memcpy async [%t1, %t2] %a, %host : memref<96x80xf32>, memref<96x80xf32>
    %t4 = gpu.launch_func async [%t3] @kernels::@stencil blocks in (%bx, %by, %c1) threads in (%t16, %t16, %c1)
        args(%a : memref<96x80xf32>, %b : memref<96x80xf32>, %rows : i32, %cols : i32)
    %t5 = gpu.launch_func async [%t4] @kernels::@stencil blocks in (%bx, %by, %c1) threads in (%t16, %t16, %c1)
        args(%b : memref<96x80xf32>, %a : memref<96x80xf32>, %rows : i32, %cols : i32)
    %t6 = gpu.memcpy async [%t5] %host, %a : memref<96x80xf32>, memref<96x80xf32>
    %t7 = gpu.dealloc async [%t6] %a : memref<96x80xf32>
    %t8 = gpu.dealloc async [%t7] %b : memref<96x80xf32>
    gpu.wait [%t8]
    return
  }
}
