  // run_matmul(A, B, C, reps): C = A * B on the device in 16x16 blocks, reps times.
  func.func @run_matmul(%ha: memref<256x256xf32>, %hb: memref<256x256xf32>, %hc: memref<256x256xf32>, %reps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %t0 = gpu.wait async
    %da, %t1 = gpu.alloc async [%t0] () : memref<256x256xf32>
    %db, %t2 = gpu.alloc async [%t1] () : memref<256x256xf32>
    %dc, %t3 = gpu.alloc async [%t2] () : memref<256x256xf32>
    %t4 = gpu.memcpy async [%t3] %da, %ha : memref<256x256xf32>, memref<256x256xf32>
    %t5 = gpu.memcpy async [%t4] %db, %hb : memref<256x256xf32>, memref<256x256xf32>
    %t6 = scf.for %i = %c0 to %reps step %c1 iter_args(%t = %t5) -> (!gpu.async.token) {
      %tn = gpu.launch_func async [%t] @matmul_kernels::@matmul blocks in (%c16, %c16, %c1) threads in (%c16, %c16, %c1)
          args(%da : memref<256x256xf32>, %db : memref<256x256xf32>, %dc : memref<256x256xf32>)
      scf.yield %tn : !gpu.async.token
    }
    %t7 = gpu.memcpy async [%t6] %hc, %dc : memref<256x256xf32>, memref<256x256xf32>
    %t8 = gpu.dealloc async [%t7] %da : memref<256x256xf32>
    %t9 = gpu.dealloc async [%t8] %db : memref<256x256xf32>
    %t10 = gpu.dealloc async [%t9] %dc : memref<256x256xf32>
    gpu.wait [%t10]
    return
  }
