// A kernel and the host function that launches it, for an object that a C program would link.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%a: f32, %x: memref<64xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<64xf32>
      %r = arith.mulf %a, %v : f32
      memref.store %r, %x[%i] : memref<64xf32>
      gpu.return
    }
  }

  func.func @scale(%a: f32, %x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : f32, %x : memref<64xf32>)
    return
  }
}
