// arith.truncf to bf16 and arith.extf back in a CPU kernel. The host's back end calls __truncsfbf2 and
// __truncdfbf2 for the truncations, which this machine's libgcc lacks: the kernel module defines them
// itself, so the object loads, and rounds to nearest even (from f64 directly, not through f32, whose
// rounding would make 1.0039062500001 a tie and give 1).
// RUN: gpu-translate --targets=cpu --emit=exe --entry-point=main %s -o %t && env MGPU_BACKEND=cpu %t | FileCheck %s --strict-whitespace --match-full-lines

// CHECK:1
// CHECK-NEXT:3.14062
// CHECK-NEXT:-1000
// CHECK-NEXT:1
// CHECK-NEXT:1.01562
// CHECK-NEXT:nan
// CHECK-NEXT:inf
// CHECK-NEXT:1.00781
// CHECK-NEXT:-2.5
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %f = gpu.alloc host_shared () : memref<7xf32>
  %d = gpu.alloc host_shared () : memref<2xf64>
  %f0 = arith.constant 1.0 : f32
  %f1 = arith.constant 3.14159 : f32
  %f2 = arith.constant -1000.7 : f32
  %f3 = arith.constant 1.00390625 : f32
  %f4 = arith.constant 1.01171875 : f32
  %f5 = arith.constant 0x7FC00000 : f32
  %f6 = arith.constant 3.4e38 : f32
  memref.store %f0, %f[%c0] : memref<7xf32>
  memref.store %f1, %f[%c1] : memref<7xf32>
  memref.store %f2, %f[%c2] : memref<7xf32>
  memref.store %f3, %f[%c3] : memref<7xf32>
  memref.store %f4, %f[%c4] : memref<7xf32>
  memref.store %f5, %f[%c5] : memref<7xf32>
  memref.store %f6, %f[%c6] : memref<7xf32>
  %d0 = arith.constant 1.0039062500001 : f64
  %d1 = arith.constant -2.5 : f64
  memref.store %d0, %d[%c0] : memref<2xf64>
  memref.store %d1, %d[%c1] : memref<2xf64>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %small = arith.cmpi ult, %tx, %c7 : index
    scf.if %small {
      %x = memref.load %f[%tx] : memref<7xf32>
      %t = arith.truncf %x : f32 to bf16
      %e = arith.extf %t : bf16 to f32
      memref.store %e, %f[%tx] : memref<7xf32>
    }
    %pair = arith.cmpi ult, %tx, %c2 : index
    scf.if %pair {
      %y = memref.load %d[%tx] : memref<2xf64>
      %u = arith.truncf %y : f64 to bf16
      %w = arith.extf %u : bf16 to f64
      memref.store %w, %d[%tx] : memref<2xf64>
    }
    gpu.terminator
  }
  scf.for %i = %c0 to %c7 step %c1 {
    %r = memref.load %f[%i] : memref<7xf32>
    vector.print %r : f32
  }
  scf.for %i = %c0 to %c2 step %c1 {
    %r = memref.load %d[%i] : memref<2xf64>
    vector.print %r : f64
  }
  return
}
