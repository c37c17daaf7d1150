// y = a * x + y over n elements, one thread per element.
module attributes {gpu.container_module} {
  gpu.module @axpy_kernels [#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80">, #rocdl.target<chip = "gfx90a">] {
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
}
