  // run_stencil(in, out, reps): one Jacobi step from in to out on the device, reps times.
  func.func @run_stencil(%hin: memref<64x64xf32>, %hout: memref<64x64xf32>, %reps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %t0 = gpu.wait async
    %din, %t1 = gpu.alloc async [%t0] () : memref<64x64xf32>
    %dout, %t2 = gpu.alloc async [%t1] () : memref<64x64xf32>
    %t3 = gpu.memcpy async [%t2] %din, %hin : memref<64x64xf32>, memref<64x64xf32>
    %t5 = scf.for %i = %c0 to %reps step %c1 iter_args(%t = %t3) -> (!gpu.async.token) {
      %tn = gpu.launch_func async [%t] @stencil_kernels::@stencil2d blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1)
          args(%din : memref<64x64xf32>, %dout : memref<64x64xf32>)
      scf.yield %tn : !gpu.async.token
    }
    %t6 = gpu.memcpy async [%t5] %hout, %dout : memref<64x64xf32>, memref<64x64xf32>
    %t7 = gpu.dealloc async [%t6] %din : memref<64x64xf32>
    %t8 = gpu.dealloc async [%t7] %dout : memref<64x64xf32>
    gpu.wait [%t8]
    return
  }
