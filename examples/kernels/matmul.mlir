// C = A * B for 256x256 matrices, in 16x16 tiles: each block stages a tile of A and of B in workgroup
// memory, waits at a barrier, accumulates, and waits again before the next tile.
// One source for every device: the kernel compiles for NVIDIA (sm_90, sm_80), AMD (gfx90a) and the CPU in
// one gpu-translate run, and the program picks the object for the device it finds (run.sh builds and runs it).
module attributes {gpu.container_module} {
  gpu.module @matmul_kernels <#gpu.runtime_select> [#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80">, #rocdl.target<chip = "gfx90a">, #cpu.target] {
    gpu.func @matmul(%A: memref<256x256xf32>, %B: memref<256x256xf32>, %C: memref<256x256xf32>)
        workgroup(%As: memref<16x16xf32, #gpu.address_space<workgroup>>, %Bs: memref<16x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %zero = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row0 = arith.muli %by, %c16 : index
      %row = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %c16 : index
      %col = arith.addi %col0, %tx : index
      %sum = scf.for %t = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (f32) {
        %ak = arith.addi %t, %tx : index
        %a = memref.load %A[%row, %ak] : memref<256x256xf32>
        memref.store %a, %As[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %bk = arith.addi %t, %ty : index
        %b = memref.load %B[%bk, %col] : memref<256x256xf32>
        memref.store %b, %Bs[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%p = %acc) -> (f32) {
          %x = memref.load %As[%ty, %k] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %y = memref.load %Bs[%k, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %next = math.fma %x, %y, %p : f32
          scf.yield %next : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      memref.store %sum, %C[%row, %col] : memref<256x256xf32>
      gpu.return
    }
  }

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
}
