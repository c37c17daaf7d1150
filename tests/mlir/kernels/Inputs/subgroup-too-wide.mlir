module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    gpu.func @f(%x: f32, %p: memref<1xf32>) kernel {
      %s = gpu.subgroup_reduce add %x cluster(size = 64) : (f32) -> f32
      %c0 = arith.constant 0 : index
      memref.store %s, %p[%c0] : memref<1xf32>
      gpu.return
    }
  }
}
