gpu.module @m [#cpu.target] {
  func.func private @cbrtf(f32) -> f32
  gpu.func @k(%p: memref<2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %v = memref.load %p[%c0] : memref<2xf32>
    %f = func.call @cbrtf(%v) : (f32) -> f32
    memref.store %f, %p[%c0] : memref<2xf32>
    gpu.return
  }
}
