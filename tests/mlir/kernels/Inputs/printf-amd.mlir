module attributes {gpu.container_module} {
  gpu.module @p [#rocdl.target<chip = "gfx90a">] {
    gpu.func @k(%x: f32) kernel {
    gpu.printf "x = %f\n", %x : f32
      gpu.return
    }
  }
}
