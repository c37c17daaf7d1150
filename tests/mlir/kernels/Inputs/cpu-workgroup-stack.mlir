// Twelve workgroup arrays of 1 MiB each: each is within the 1 MiB that one array may have, but together
// they would overflow the stack of the thread that runs the block.
gpu.module @kernels [#cpu.target] {
  gpu.func @big(%out: memref<12xf32>)
      workgroup(%a0: memref<262144xf32, #gpu.address_space<workgroup>>, %a1: memref<262144xf32, #gpu.address_space<workgroup>>,
                %a2: memref<262144xf32, #gpu.address_space<workgroup>>, %a3: memref<262144xf32, #gpu.address_space<workgroup>>,
                %a4: memref<262144xf32, #gpu.address_space<workgroup>>, %a5: memref<262144xf32, #gpu.address_space<workgroup>>,
                %a6: memref<262144xf32, #gpu.address_space<workgroup>>, %a7: memref<262144xf32, #gpu.address_space<workgroup>>,
                %a8: memref<262144xf32, #gpu.address_space<workgroup>>, %a9: memref<262144xf32, #gpu.address_space<workgroup>>,
                %a10: memref<262144xf32, #gpu.address_space<workgroup>>, %a11: memref<262144xf32, #gpu.address_space<workgroup>>)
      kernel {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    memref.store %one, %a0[%c0] : memref<262144xf32, #gpu.address_space<workgroup>>
    memref.store %one, %a11[%c0] : memref<262144xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %x = memref.load %a11[%c0] : memref<262144xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%c0] : memref<12xf32>
    gpu.return
  }
}
