// Each thread of a block of four prints its index, a float, a narrow integer and an index, with
// gpu.printf; on the CPU backend, the threads of a block run in order.
module attributes {gpu.container_module} {
  func.func @greet(%x: f32) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%t, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %i = arith.index_cast %t : index to i32
      %s = arith.index_cast %t : index to i8
      %m = arith.constant -3 : i8
      %n = arith.muli %s, %m : i8
      %f = arith.sitofp %i : i32 to f32
      %y = arith.mulf %f, %x : f32
      gpu.printf "thread %d: %.2f %d %ld\n", %i, %y, %n, %t : i32, f32, i8, index
      gpu.terminator
    }
    return
  }
}
