// Views of memory in a kernel: memref.subview (every second element of a row, a 4x4 tile at offsets the
// thread computes, a column with the unit dimension dropped), memref.expand_shape, memref.collapse_shape and
// memref.cast, memref.reinterpret_cast (of m, and of a row subview, whose own offset it starts from again).
// m[i][j] holds 16 i + j; thread t writes row t of out, seen as 16 rows of 4.
module attributes {gpu.container_module} {
  func.func @views(%m: memref<16x16xf32>, %out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%t, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.000000e+00 : f32
      // m[t][1], m[t][3], ..., m[t][15], summed: 128 t + 64.
      %row = memref.subview %m[%t, 1] [1, 8] [1, 2] : memref<16x16xf32> to memref<8xf32, strided<[2], offset: ?>>
      %sum = scf.for %k = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %row[%k] : memref<8xf32, strided<[2], offset: ?>>
        %y = arith.addf %acc, %x : f32
        scf.yield %y : f32
      }
      // The tile at (t / 4 * 4, t % 4 * 4), its element (2, 3).
      %q = arith.divui %t, %c4 : index
      %r = arith.remui %t, %c4 : index
      %i0 = arith.muli %q, %c4 : index
      %j0 = arith.muli %r, %c4 : index
      %tile = memref.subview %m[%i0, %j0] [4, 4] [1, 1] : memref<16x16xf32> to memref<4x4xf32, strided<[16, 1], offset: ?>>
      %corner = memref.load %tile[%c2, %c3] : memref<4x4xf32, strided<[16, 1], offset: ?>>
      // Column t, its element 5: 80 + t.
      %col = memref.subview %m[0, %t] [16, 1] [1, 1] : memref<16x16xf32> to memref<16xf32, strided<[16], offset: ?>>
      %five = memref.load %col[%c5] : memref<16xf32, strided<[16], offset: ?>>
      // m as 8 rows of 32 from element t: its [1][2] is element t + 34.
      %wide = memref.reinterpret_cast %m to offset: [%t], sizes: [8, 32], strides: [32, 1] : memref<16x16xf32> to memref<8x32xf32, strided<[32, 1], offset: ?>>
      %w = memref.load %wide[%c1, %c2] : memref<8x32xf32, strided<[32, 1], offset: ?>>
      // Row 2 (offset 32), then from the base again at element 5: its [0] is 5.
      %row2 = memref.subview %m[2, 0] [1, 16] [1, 1] : memref<16x16xf32> to memref<16xf32, strided<[1], offset: 32>>
      %again = memref.reinterpret_cast %row2 to offset: [5], sizes: [4], strides: [1] : memref<16xf32, strided<[1], offset: 32>> to memref<4xf32, strided<[1], offset: 5>>
      %e5 = memref.load %again[%c0] : memref<4xf32, strided<[1], offset: 5>>
      %five_w = arith.addf %five, %w : f32
      %last = arith.addf %five_w, %e5 : f32
      %grid = memref.expand_shape %out [[0, 1]] output_shape [16, 4] : memref<64xf32> into memref<16x4xf32>
      memref.store %sum, %grid[%t, %c0] : memref<16x4xf32>
      memref.store %corner, %grid[%t, %c1] : memref<16x4xf32>
      %flat = memref.collapse_shape %grid [[0, 1]] : memref<16x4xf32> into memref<64xf32>
      %any = memref.cast %flat : memref<64xf32> to memref<?xf32>
      %base = arith.muli %t, %c4 : index
      %at2 = arith.addi %base, %c2 : index
      %at3 = arith.addi %base, %c3 : index
      %both = arith.addf %sum, %corner : f32
      memref.store %both, %any[%at2] : memref<?xf32>
      memref.store %last, %any[%at3] : memref<?xf32>
      gpu.terminator
    }
    return
  }
}
