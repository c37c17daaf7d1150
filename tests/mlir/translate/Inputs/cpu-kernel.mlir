module attributes {gpu.container_module} {
  gpu.module @kernels [#cpu.target] {
    gpu.func @twice(%p: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %p[%i] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %p[%i] : memref<4xf32>
      gpu.return
    }
  }
}
