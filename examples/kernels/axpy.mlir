// y = a * x + y over n elements, one thread per element.
// One source for every device: the kernel compiles for NVIDIA (sm_90, sm_80), AMD (gfx90a) and the CPU in
// one gpu-translate run, and the program picks the object for the device it finds (run.sh builds and runs it).
module attributes {gpu.container_module} {
  gpu.module @axpy_kernels <#gpu.runtime_select> [#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80">, #rocdl.target<chip = "gfx90a">, #cpu.target] {
    gpu.func @axpy(%a: f32, %x: memref<1024xf32>, %y: memref<1024xf32>, %n: i32) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %ni = arith.index_cast %n : i32 to index
      %in = arith.cmpi slt, %i, %ni : index
      scf.if %in {
        %xv = memref.load %x[%i] : memref<1024xf32>
        %yv = memref.load %y[%i] : memref<1024xf32>
        %ax = arith.mulf %a, %xv : f32
        %r = arith.addf %ax, %yv : f32
        memref.store %r, %y[%i] : memref<1024xf32>
      }
      gpu.return
    }
  }

  // run_axpy(a, x, y, reps): y = a * x + y on the device, reps times in a row on one stream.
  func.func @run_axpy(%a: f32, %hx: memref<1024xf32>, %hy: memref<1024xf32>, %reps: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %blocks = arith.constant 4 : index
    %threads = arith.constant 256 : index
    %n = arith.constant 1024 : i32
    %t0 = gpu.wait async
    %dx, %t1 = gpu.alloc async [%t0] () : memref<1024xf32>
    %dy, %t2 = gpu.alloc async [%t1] () : memref<1024xf32>
    %t3 = gpu.memcpy async [%t2] %dx, %hx : memref<1024xf32>, memref<1024xf32>
    %t4 = gpu.memcpy async [%t3] %dy, %hy : memref<1024xf32>, memref<1024xf32>
    %t5 = scf.for %i = %c0 to %reps step %c1 iter_args(%t = %t4) -> (!gpu.async.token) {
      %tn = gpu.launch_func async [%t] @axpy_kernels::@axpy blocks in (%blocks, %c1, %c1) threads in (%threads, %c1, %c1)
          args(%a : f32, %dx : memref<1024xf32>, %dy : memref<1024xf32>, %n : i32)
      scf.yield %tn : !gpu.async.token
    }
    %t6 = gpu.memcpy async [%t5] %hy, %dy : memref<1024xf32>, memref<1024xf32>
    %t7 = gpu.dealloc async [%t6] %dx : memref<1024xf32>
    %t8 = gpu.dealloc async [%t7] %dy : memref<1024xf32>
    gpu.wait [%t8]
    return
  }
}
