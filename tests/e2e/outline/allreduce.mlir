// gpu.all_reduce over a block of sx x sy threads, which the host passes (the C driver runs 100 as 20 x 5,
// 1,024, a single thread and 1,023 as 33 x 31, so the last subgroup is often partial): named reductions of
// f32, i32, i16 and i1, one by a body of i64 values, and one in an scf.for that reduces again each turn.
// Thread t (in the block's order, x fastest) writes row t of f and of n.
module attributes {gpu.container_module} {
  func.func @allreduce(%f: memref<1024x3xf32>, %n: memref<1024x5xi64>, %sx: index, %sy: index) {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%bsx = %sx, %bsy = %sy, %bsz = %c1) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %row = arith.muli %ty, %bsx : index
      %t = arith.addi %row, %tx : index
      %ti = arith.index_cast %t : index to i32
      %tf = arith.sitofp %ti : i32 to f32
      %half = arith.constant 5.000000e-01 : f32
      %one = arith.constant 1.000000e+00 : f32
      %xh = arith.mulf %tf, %half : f32
      %x = arith.addf %xh, %one : f32
      // Sums of halves up to 512.5 are exact in f32, in any order.
      %sum = gpu.all_reduce add %x uniform {} : (f32) -> f32
      %low = gpu.all_reduce minnumf %x {} : (f32) -> f32
      memref.store %sum, %f[%t, %c0] : memref<1024x3xf32>
      memref.store %low, %f[%t, %c1] : memref<1024x3xf32>
      %seven = arith.constant 7 : i32
      %k = arith.constant 300 : i32
      %i7 = arith.muli %ti, %seven : i32
      %i = arith.subi %i7, %k : i32
      %top = gpu.all_reduce maxsi %i {} : (i32) -> i32
      %top64 = arith.extsi %top : i32 to i64
      memref.store %top64, %n[%t, %c0] : memref<1024x5xi64>
      %h = arith.trunci %i7 : i32 to i16
      %hx = gpu.all_reduce xor %h {} : (i16) -> i16
      %hx64 = arith.extui %hx : i16 to i64
      memref.store %hx64, %n[%t, %c1] : memref<1024x5xi64>
      %c5i = arith.constant 5 : i32
      %r5 = arith.remui %ti, %c5i : i32
      %z = arith.constant 0 : i32
      %odd = arith.cmpi ne, %r5, %z : i32
      %all = gpu.all_reduce and %odd {} : (i1) -> i1
      %any = gpu.all_reduce or %odd {} : (i1) -> i1
      %all64 = arith.extui %all : i1 to i64
      %any64 = arith.extui %any : i1 to i64
      %two64 = arith.constant 2 : i64
      %any2 = arith.muli %any64, %two64 : i64
      %flags = arith.addi %all64, %any2 : i64
      memref.store %flags, %n[%t, %c2] : memref<1024x5xi64>
      // A body: the sum of t * 2^33 + t, past 32 bits, combined by the body's own arith.addi.
      %l = arith.extsi %ti : i32 to i64
      %big = arith.constant 8589934592 : i64
      %lb = arith.muli %l, %big : i64
      %lv = arith.addi %lb, %l : i64
      %ls = gpu.all_reduce %lv {
      ^bb0(%a: i64, %b: i64):
        %s = arith.addi %a, %b : i64
        gpu.yield %s : i64
      } : (i64) -> i64
      memref.store %ls, %n[%t, %c3] : memref<1024x5xi64>
      // In a loop, reduced again each turn: acc = acc + (sum over the block of acc + t), from acc = 1.
      %init = arith.constant 1 : i64
      %acc = scf.for %it = %c0 to %c3 step %c1 iter_args(%a = %init) -> (i64) {
        %mine = arith.addi %a, %l : i64
        %s = gpu.all_reduce add %mine uniform {} : (i64) -> i64
        %next = arith.addi %a, %s : i64
        scf.yield %next : i64
      }
      memref.store %acc, %n[%t, %c4] : memref<1024x5xi64>
      %fi = arith.sitofp %acc : i64 to f32
      memref.store %fi, %f[%t, %c2] : memref<1024x3xf32>
      gpu.terminator
    }
    return
  }
}
