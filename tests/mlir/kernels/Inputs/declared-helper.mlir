gpu.module @m [#cpu.target] {
  func.func private @my_typo_helper(f32) -> f32
  func.func private @cbrtf(f32) -> f32
  gpu.func @k(%p: memref<2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %v = memref.load %p[%c0] : memref<2xf32>
    %f = func.call @my_typo_helper(%v) : (f32) -> f32
    %g = func.call @cbrtf(%f) : (f32) -> f32
    memref.store %g, %p[%c0] : memref<2xf32>
    gpu.return
  }
}
