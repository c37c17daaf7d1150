module attributes {gpu.container_module} {
  gpu.module @amd [#rocdl.target<chip = "gfx90a">] {
    gpu.func @f(%x: f32, %out: memref<1xf32>) kernel {
      %t = math.cbrt %x : f32
      %c0 = arith.constant 0 : index
      memref.store %t, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}
