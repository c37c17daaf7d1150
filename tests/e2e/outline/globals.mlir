// Constant tables as memref.global: the launch body reads @coeffs and @grid itself (outlining copies them
// into the kernel's module), and the host passes it its own @bias (a descriptor of the host's global, whose
// pointer the kernel gets). out[t] = coeffs[t % 4] * grid[t % 2][t % 3] + bias[t % 4].
module attributes {gpu.container_module} {
  memref.global "private" constant @coeffs : memref<4xf32> = dense<[5.000000e-01, 1.000000e+00, -2.000000e+00, 3.250000e+00]>
  memref.global "private" constant @grid : memref<2x3xi32> = dense<[[1, 2, 3], [4, 5, 6]]>
  memref.global "private" @bias : memref<4xf32> = dense<[1.000000e+02, 2.000000e+02, 3.000000e+02, 4.000000e+02]> {alignment = 64 : i64}
  func.func @tables(%out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %bias = memref.get_global @bias : memref<4xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%t, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %k = arith.remui %t, %c4 : index
      %r = arith.remui %t, %c2 : index
      %q = arith.remui %t, %c3 : index
      %cs = memref.get_global @coeffs : memref<4xf32>
      %c = memref.load %cs[%k] : memref<4xf32>
      %gr = memref.get_global @grid : memref<2x3xi32>
      %g = memref.load %gr[%r, %q] : memref<2x3xi32>
      %gf = arith.sitofp %g : i32 to f32
      %b = memref.load %bias[%k] : memref<4xf32>
      %v = arith.mulf %c, %gf : f32
      %w = arith.addf %v, %b : f32
      memref.store %w, %out[%t] : memref<64xf32>
      gpu.terminator
    }
    return
  }
}
