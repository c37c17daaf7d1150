// Training input for the class-data-sharing archive: a kernel with loops, workgroup memory and barriers.
module attributes {gpu.container_module} {
  gpu.module @matmul_kernels [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx90a">] {
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
}
