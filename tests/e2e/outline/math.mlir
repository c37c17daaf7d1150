// Math beyond the usual: functions no GPU computes natively (libm's on the CPU, libdevice's on NVIDIA),
// roundeven, the integer functions and the float classes. Thread t reads in[t] and writes one row of f
// (16 functions) and one of n (the four integer functions of in[t]'s bits, then the four classes).
module attributes {gpu.container_module} {
  func.func @mathk(%in: memref<64xf32>, %f: memref<64x16xf32>, %n: memref<64x8xi32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%t, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %x = memref.load %in[%t] : memref<64xf32>
      %half = arith.constant 0.5 : f32
      %v0 = math.tan %x : f32
      %v1 = math.asin %x : f32
      %v2 = math.acos %x : f32
      %v3 = math.atan %x : f32
      %v4 = math.sinh %x : f32
      %v5 = math.cosh %x : f32
      %v6 = math.asinh %x : f32
      %v7 = math.acosh %x : f32
      %v8 = math.atanh %x : f32
      %v9 = math.log10 %x : f32
      %v10 = math.log1p %x : f32
      %v11 = math.expm1 %x : f32
      %v12 = math.cbrt %x : f32
      %v13 = math.erfc %x : f32
      %v14 = math.roundeven %x : f32
      %v15 = math.atan2 %x, %half : f32
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      %c8 = arith.constant 8 : index
      %c9 = arith.constant 9 : index
      %c10 = arith.constant 10 : index
      %c11 = arith.constant 11 : index
      %c12 = arith.constant 12 : index
      %c13 = arith.constant 13 : index
      %c14 = arith.constant 14 : index
      %c15 = arith.constant 15 : index
      memref.store %v0, %f[%t, %c0] : memref<64x16xf32>
      memref.store %v1, %f[%t, %c1] : memref<64x16xf32>
      memref.store %v2, %f[%t, %c2] : memref<64x16xf32>
      memref.store %v3, %f[%t, %c3] : memref<64x16xf32>
      memref.store %v4, %f[%t, %c4] : memref<64x16xf32>
      memref.store %v5, %f[%t, %c5] : memref<64x16xf32>
      memref.store %v6, %f[%t, %c6] : memref<64x16xf32>
      memref.store %v7, %f[%t, %c7] : memref<64x16xf32>
      memref.store %v8, %f[%t, %c8] : memref<64x16xf32>
      memref.store %v9, %f[%t, %c9] : memref<64x16xf32>
      memref.store %v10, %f[%t, %c10] : memref<64x16xf32>
      memref.store %v11, %f[%t, %c11] : memref<64x16xf32>
      memref.store %v12, %f[%t, %c12] : memref<64x16xf32>
      memref.store %v13, %f[%t, %c13] : memref<64x16xf32>
      memref.store %v14, %f[%t, %c14] : memref<64x16xf32>
      memref.store %v15, %f[%t, %c15] : memref<64x16xf32>
      %b = arith.bitcast %x : f32 to i32
      %i0 = math.absi %b : i32
      %i1 = math.ctlz %b : i32
      %i2 = math.cttz %b : i32
      %i3 = math.ctpop %b : i32
      %k0 = math.isnan %x : f32
      %k1 = math.isinf %x : f32
      %k2 = math.isfinite %x : f32
      %k3 = math.isnormal %x : f32
      %i4 = arith.extui %k0 : i1 to i32
      %i5 = arith.extui %k1 : i1 to i32
      %i6 = arith.extui %k2 : i1 to i32
      %i7 = arith.extui %k3 : i1 to i32
      memref.store %i0, %n[%t, %c0] : memref<64x8xi32>
      memref.store %i1, %n[%t, %c1] : memref<64x8xi32>
      memref.store %i2, %n[%t, %c2] : memref<64x8xi32>
      memref.store %i3, %n[%t, %c3] : memref<64x8xi32>
      memref.store %i4, %n[%t, %c4] : memref<64x8xi32>
      memref.store %i5, %n[%t, %c5] : memref<64x8xi32>
      memref.store %i6, %n[%t, %c6] : memref<64x8xi32>
      memref.store %i7, %n[%t, %c7] : memref<64x8xi32>
      gpu.terminator
    }
    return
  }
}
