  // run_reduce(x, sum, reps): sum[0] += x[0] + ... + x[4095] on the device, reps times (sum is copied in
  // and out).
  func.func @run_reduce(%hx: memref<4096xf32>, %hs: memref<1xf32>, %reps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %blocks = arith.constant 16 : index
    %threads = arith.constant 256 : index
    %n = arith.constant 4096 : i32
    %t0 = gpu.wait async
    %dx, %t1 = gpu.alloc async [%t0] () : memref<4096xf32>
    %ds, %t2 = gpu.alloc async [%t1] () : memref<1xf32>
    %t3 = gpu.memcpy async [%t2] %dx, %hx : memref<4096xf32>, memref<4096xf32>
    %t4 = gpu.memcpy async [%t3] %ds, %hs : memref<1xf32>, memref<1xf32>
    %t5 = scf.for %i = %c0 to %reps step %c1 iter_args(%t = %t4) -> (!gpu.async.token) {
      %tn = gpu.launch_func async [%t] @reduce_kernels::@reduce blocks in (%blocks, %c1, %c1) threads in (%threads, %c1, %c1)
          args(%dx : memref<4096xf32>, %ds : memref<1xf32>, %n : i32)
      scf.yield %tn : !gpu.async.token
    }
    %t6 = gpu.memcpy async [%t5] %hs, %ds : memref<1xf32>, memref<1xf32>
    %t7 = gpu.dealloc async [%t6] %dx : memref<4096xf32>
    %t8 = gpu.dealloc async [%t7] %ds : memref<1xf32>
    gpu.wait [%t8]
    return
  }
