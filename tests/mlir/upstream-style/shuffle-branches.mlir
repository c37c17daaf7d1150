// A shuffle whose validity chooses between two blocks (cf.cond_br), after which the kernel stores what it
// chose: on the CPU the blocks after the last shuffle become one thread's function, called in the loop over
// the threads. Twelve lanes, a width that is not a power of two: the first twelve lanes are the one segment,
// so lanes 7 to 11 find nothing five lanes down.
// RUN: gpu-translate --targets=cpu --emit=exe --entry-point=main %s -o %t && env MGPU_BACKEND=cpu %t | FileCheck %s
// RUN: gpu-translate --targets=nvvm:sm_90,rocdl:gfx90a --emit=obj %s -o %t.o

// CHECK: [5, 6, 7, 8, 9, 10, 11, -2, -2, -2, -2, -2]
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %mem = memref.alloc() : memref<12xi32>
  %lanes = memref.cast %mem : memref<12xi32> to memref<?xi32>
  %n = memref.dim %lanes, %c0 : memref<?xi32>
  %u = memref.cast %lanes : memref<?xi32> to memref<*xi32>
  gpu.host_register %u : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
    %t = arith.index_cast %tx : index to i32
    %width = arith.index_cast %sx : index to i32
    %five = arith.constant 5 : i32
    %got, %ok = gpu.shuffle down %t, %five, %width : i32
    cf.cond_br %ok, ^found(%got : i32), ^none
  ^none:
    %m2 = arith.constant -2 : i32
    cf.br ^found(%m2 : i32)
  ^found(%v : i32):
    memref.store %v, %lanes[%tx] : memref<?xi32>
    gpu.terminator
  }
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}

func.func private @printMemrefI32(memref<*xi32>)
