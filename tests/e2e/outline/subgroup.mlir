// gpu.subgroup_reduce over whole subgroups and over clusters, of f32, i32, f64 and i64 values, in a block
// of 64 threads (two subgroups of 32). Thread t writes row t of f (four floats) and of n (three integers).
module attributes {gpu.container_module} {
  func.func @reduce(%f: memref<64x4xf32>, %n: memref<64x3xi32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%t, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      %k = arith.constant 3.700000e-01 : f32
      %one = arith.constant 1.000000e+00 : f32
      %xk = arith.mulf %tf, %k : f32
      %x = arith.addf %xk, %one : f32
      %seven = arith.constant 7 : i32
      %hundred = arith.constant 100 : i32
      %i7 = arith.muli %ti, %seven : i32
      %i = arith.subi %i7, %hundred : i32
      %s0 = gpu.subgroup_reduce add %x : (f32) -> f32
      %s1 = gpu.subgroup_reduce maximumf %x cluster(size = 4) : (f32) -> f32
      %s2 = gpu.subgroup_reduce add %x cluster(size = 8, stride = 2) : (f32) -> f32
      %d = arith.extf %x : f32 to f64
      %dm = gpu.subgroup_reduce mul %d uniform cluster(size = 2) : (f64) -> f64
      %s3 = arith.truncf %dm : f64 to f32
      memref.store %s0, %f[%t, %c0] : memref<64x4xf32>
      memref.store %s1, %f[%t, %c1] : memref<64x4xf32>
      memref.store %s2, %f[%t, %c2] : memref<64x4xf32>
      memref.store %s3, %f[%t, %c3] : memref<64x4xf32>
      %i0 = gpu.subgroup_reduce minsi %i : (i32) -> i32
      %i1 = gpu.subgroup_reduce xor %i cluster(size = 16) : (i32) -> i32
      %l = arith.extsi %i : i32 to i64
      %big = arith.constant 4294967296 : i64
      %lb = arith.muli %l, %big : i64
      %ls = gpu.subgroup_reduce add %lb : (i64) -> i64
      %shift = arith.constant 32 : i64
      %lh = arith.shrsi %ls, %shift : i64
      %i2 = arith.trunci %lh : i64 to i32
      memref.store %i0, %n[%t, %c0] : memref<64x3xi32>
      memref.store %i1, %n[%t, %c1] : memref<64x3xi32>
      memref.store %i2, %n[%t, %c2] : memref<64x3xi32>
      gpu.terminator
    }
    return
  }
}
