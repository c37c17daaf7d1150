// vector.print of scalars, as upstream's vector-to-llvm lowers it onto the runner utilities: a number then a
// newline, a string as it is, another punctuation mark or none. Also a number in memory that host and kernel
// share (gpu.alloc host_shared), read back on the host.
// RUN: gpu-translate --targets=cpu --emit=exe --entry-point=main %s -o %t && env MGPU_BACKEND=cpu %t | FileCheck %s --strict-whitespace --match-full-lines

// CHECK:-7
// CHECK-NEXT:2.5
// CHECK-NEXT:12
// CHECK-NEXT:1
// CHECK-NEXT:0.1
// CHECK-NEXT:one line
// CHECK-NEXT:( -7,  18446744073709551615 )
// CHECK-NEXT:3000
func.func @main() {
  %a = arith.constant -7 : i32
  %b = arith.constant 2.5 : f32
  %c = arith.constant 12 : index
  %d = arith.constant true
  %e = arith.constant 0.1 : f64
  %m1 = arith.constant -1 : index
  vector.print %a : i32
  vector.print %b : f32
  vector.print %c : index
  vector.print %d : i1
  vector.print %e : f64
  vector.print str "one line\n"
  vector.print punctuation <open>
  vector.print %a : i32 punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print str " "
  vector.print %m1 : index punctuation <no_punctuation>
  vector.print punctuation <close>
  vector.print punctuation <newline>

  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 1500 : i32
  %shared = gpu.alloc host_shared () : memref<1xi32>
  memref.store %v, %shared[%c0] : memref<1xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %shared[%c0] : memref<1xi32>
    %y = arith.addi %x, %x : i32
    memref.store %y, %shared[%c0] : memref<1xi32>
    gpu.terminator
  }
  %r = memref.load %shared[%c0] : memref<1xi32>
  vector.print %r : i32
  return
}
