gpu.module @k [#nvvm.target<chip = "sm_90">] {
  gpu.func @f(%m: memref<16x16xf32>, %v: memref<16xf32>, %i: index) kernel {
    %s = memref.subview %m[1, 0] [4, 4] [0, 1] : memref<16x16xf32> to memref<4x4xf32, strided<[0, 1], offset: 16>>
    %c0 = arith.constant 0 : index
    %x = memref.load %s[%c0, %c0] : memref<4x4xf32, strided<[0, 1], offset: 16>>
    gpu.return
  }
}
