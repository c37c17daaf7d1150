// A kernel whose threads work together, with 64 KiB of private memory per thread: more than its per-thread
// arrays may have on the stack, so each block allocates them, for the launch's threads. The program
// launches blocks of 65,536 threads (4 GiB of private memory each, which a test keeps it from allocating
// with ulimit -v), of 1,048,576 (64 GiB), then of 256.
module attributes {gpu.container_module} {
  gpu.module @kernels [#cpu.target] {
    gpu.func @scratch(%out: memref<?xf32>) private(%p: memref<16384xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %c16383 = arith.constant 16383 : index
      %i = gpu.thread_id x
      %v = arith.index_cast %i : index to i32
      %f = arith.sitofp %v : i32 to f32
      memref.store %f, %p[%c16383] : memref<16384xf32, #gpu.address_space<private>>
      gpu.barrier
      %g = memref.load %p[%c16383] : memref<16384xf32, #gpu.address_space<private>>
      memref.store %g, %out[%i] : memref<?xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %huge = arith.constant 1048576 : index
    %sizes = memref.alloc() : memref<3xindex>
    %c256 = arith.constant 256 : index
    %large = arith.constant 65536 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    memref.store %large, %sizes[%c0] : memref<3xindex>
    memref.store %huge, %sizes[%c1] : memref<3xindex>
    memref.store %c256, %sizes[%c2] : memref<3xindex>
    scf.for %k = %c0 to %c3 step %c1 {
      %n = memref.load %sizes[%k] : memref<3xindex>
      %out = gpu.alloc host_shared (%n) : memref<?xf32>
      gpu.launch_func @kernels::@scratch blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) args(%out : memref<?xf32>)
      %last = arith.subi %n, %c1 : index
      %b = memref.load %out[%last] : memref<?xf32>
      vector.print %n : index
      vector.print %b : f32
    }
    return
  }
}
