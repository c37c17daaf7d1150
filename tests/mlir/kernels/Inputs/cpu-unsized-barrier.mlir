// A kernel whose threads work together (a float value crosses its barrier, kept in an array per thread), without known_block_size: each thread
// reads its right neighbour's index after the barrier. The block size comes from the program's argument.
module attributes {gpu.container_module} {
  gpu.module @kernels [#cpu.target] {
    gpu.func @neighbours(%out: memref<?xi32>) workgroup(%tile: memref<1024xi32, #gpu.address_space<workgroup>>) kernel {
      %c1 = arith.constant 1 : index
      %c1023 = arith.constant 1023 : index
      %i = gpu.thread_id x
      %n = gpu.block_dim x
      %slot = arith.remui %i, %c1023 : index
      %v = arith.index_cast %i : index to i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %v, %tile[%slot] : memref<1024xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %g = arith.fptosi %f : f32 to i32
      %next = arith.addi %i, %c1 : index
      %wrapped = arith.remui %next, %n : index
      %w = arith.index_cast %wrapped : index to i32
      %sum = arith.addi %g, %w : i32
      memref.store %sum, %out[%i] : memref<?xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %sizes = memref.alloc() : memref<4xindex>
    %c1024 = arith.constant 1024 : index
    %big = arith.constant 524288 : index
    memref.store %c1024, %sizes[%c0] : memref<4xindex>
    memref.store %big, %sizes[%c1] : memref<4xindex>
    scf.for %k = %c0 to %c4 step %c1 {
      %c2 = arith.constant 2 : index
      %in = arith.cmpi ult, %k, %c2 : index
      scf.if %in {
        %n = memref.load %sizes[%k] : memref<4xindex>
        %out = gpu.alloc host_shared (%n) : memref<?xi32>
        gpu.launch_func @kernels::@neighbours blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) args(%out : memref<?xi32>)
        %last = arith.subi %n, %c1 : index
        %a = memref.load %out[%c0] : memref<?xi32>
        %b = memref.load %out[%last] : memref<?xi32>
        vector.print %n : index
        vector.print %a : i32
        vector.print %b : i32
      }
    }
    return
  }
}
