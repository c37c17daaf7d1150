// sum += x[0] + ... + x[n-1]: each thread loads one element, each subgroup of 32 lanes adds its values with
// xor shuffles, and the first lane of each adds the subgroup's total to the result with one atomic add.
// One source for every device: the kernel compiles for NVIDIA (sm_90, sm_80), AMD (gfx90a) and the CPU in
// one gpu-translate run, and the program picks the object for the device it finds (run.sh builds and runs it).
module attributes {gpu.container_module} {
  gpu.module @reduce_kernels <#gpu.runtime_select> [#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80">, #rocdl.target<chip = "gfx90a">, #cpu.target] {
    gpu.func @reduce(%x: memref<4096xf32>, %sum: memref<1xf32>, %n: i32) kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f32
      %w = arith.constant 32 : i32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %ni = arith.index_cast %n : i32 to index
      %in = arith.cmpi slt, %i, %ni : index
      %v = scf.if %in -> (f32) {
        %l = memref.load %x[%i] : memref<4096xf32>
        scf.yield %l : f32
      } else {
        scf.yield %zero : f32
      }
      %o16 = arith.constant 16 : i32
      %s16, %ok16 = gpu.shuffle xor %v, %o16, %w : f32
      %v16 = arith.addf %v, %s16 : f32
      %o8 = arith.constant 8 : i32
      %s8, %ok8 = gpu.shuffle xor %v16, %o8, %w : f32
      %v8 = arith.addf %v16, %s8 : f32
      %o4 = arith.constant 4 : i32
      %s4, %ok4 = gpu.shuffle xor %v8, %o4, %w : f32
      %v4 = arith.addf %v8, %s4 : f32
      %o2 = arith.constant 2 : i32
      %s2, %ok2 = gpu.shuffle xor %v4, %o2, %w : f32
      %v2 = arith.addf %v4, %s2 : f32
      %o1 = arith.constant 1 : i32
      %s1, %ok1 = gpu.shuffle xor %v2, %o1, %w : f32
      %total = arith.addf %v2, %s1 : f32
      %lane = gpu.lane_id
      %c32 = arith.constant 32 : index
      %lane32 = arith.remui %lane, %c32 : index
      %first = arith.cmpi eq, %lane32, %c0 : index
      scf.if %first {
        %old = memref.atomic_rmw addf %total, %sum[%c0] : (f32, memref<1xf32>) -> f32
      }
      gpu.return
    }
  }

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
}
