// x * x + x for x = 0..7, one work-item each, in memory that host and kernel share; the host prints them.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %buf = gpu.alloc host_shared () : memref<8xi32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %buf[%i] : memref<8xi32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %x = memref.load %buf[%tx] : memref<8xi32>
    %y = arith.muli %x, %x : i32
    %z = arith.addi %y, %x : i32
    memref.store %z, %buf[%tx] : memref<8xi32>
    gpu.terminator
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %r = memref.load %buf[%i] : memref<8xi32>
    vector.print %r : i32
  }
  gpu.dealloc %buf : memref<8xi32>
  return
}
