// Memory operations without kernels: allocation, memset of 32- and 16-bit elements, copies both ways,
// host registration, in async chains (two dependencies joined) and in synchronous form.
module attributes {gpu.container_module} {
  func.func @run_memory(%out32: memref<16xf32>, %out16: memref<8xi16>, %pinned: memref<*xf32>, %v: f32, %h: i16) {
    gpu.host_register %pinned : memref<*xf32>
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %a, %t2 = gpu.alloc async [%t0] () : memref<16xf32>
    %b, %t3 = gpu.alloc async [%t1] () : memref<8xi16>
    %t4 = gpu.memset async [%t2, %t3] %a, %v : memref<16xf32>, f32
    %t5 = gpu.memset async [%t4] %b, %h : memref<8xi16>, i16
    %t6 = gpu.memcpy async [%t5] %out32, %a : memref<16xf32>, memref<16xf32>
    %t7 = gpu.memcpy async [%t6] %out16, %b : memref<8xi16>, memref<8xi16>
    %t8 = gpu.dealloc async [%t7] %a : memref<16xf32>
    %t9 = gpu.dealloc async [%t8] %b : memref<8xi16>
    gpu.wait [%t9, %t1]
    %c = gpu.alloc () : memref<16xf32>
    gpu.memcpy %c, %out32 : memref<16xf32>, memref<16xf32>
    gpu.memcpy %out32, %c : memref<16xf32>, memref<16xf32>
    gpu.dealloc %c : memref<16xf32>
    return
  }
}
