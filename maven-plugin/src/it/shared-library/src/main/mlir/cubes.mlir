// @cubes(): x * x * x for x = 0..5 on the device, printed by the host; libcubes.so exports it to C.
func.func @cubes() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %buf = gpu.alloc host_shared () : memref<6xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c6, %sy = %c1, %sz = %c1) {
    %x = arith.index_cast %tx : index to i32
    %s = arith.muli %x, %x : i32
    %c = arith.muli %s, %x : i32
    memref.store %c, %buf[%tx] : memref<6xi32>
    gpu.terminator
  }
  scf.for %i = %c0 to %c6 step %c1 {
    %r = memref.load %buf[%i] : memref<6xi32>
    vector.print %r : i32
  }
  gpu.dealloc %buf : memref<6xi32>
  return
}
