// A block shaped by the sizes of a dynamically shaped memref (memref.dim on the host), a reduction with a
// region of its own, and the kernel's memref taken as upstream's default passes it: its descriptor's fields,
// so that the kernel addresses memref<?x?x?xf32> with the strides it is given.
// RUN: gpu-translate --targets=cpu --emit=exe --entry-point=main %s -o %t && env MGPU_BACKEND=cpu %t | FileCheck %s
// RUN: gpu-translate --targets=nvvm:sm_90,rocdl:gfx90a --emit=obj %s -o %t.o

// CHECK: rank = 3 offset = 0 sizes = [2, 3, 4] strides = [12, 4, 1]
// CHECK-COUNT-6: 1.4375, 1.4375, 1.4375, 1.4375]
func.func @main() {
  %buffer = memref.alloc() : memref<2x3x4xf32>
  %dyn = memref.cast %buffer : memref<2x3x4xf32> to memref<?x?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = memref.dim %dyn, %c0 : memref<?x?x?xf32>
  %y = memref.dim %dyn, %c1 : memref<?x?x?xf32>
  %z = memref.dim %dyn, %c2 : memref<?x?x?xf32>
  %u = memref.cast %dyn : memref<?x?x?xf32> to memref<*xf32>
  gpu.host_register %u : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %x, %sy = %y, %sz = %z) {
    // Thread (x, y, z) holds its linear index in sixteenths; the region keeps the larger of two.
    %xy = arith.muli %tx, %sy : index
    %row = arith.addi %xy, %ty : index
    %rz = arith.muli %row, %sz : index
    %id = arith.addi %rz, %tz : index
    %i = arith.index_cast %id : index to i32
    %f = arith.sitofp %i : i32 to f32
    %q = arith.constant 0.0625 : f32
    %w = arith.mulf %f, %q : f32
    %m = gpu.all_reduce %w uniform {
    ^bb0(%l: f32, %r: f32):
      %s = arith.maximumf %l, %r : f32
      gpu.yield %s : f32
    } : (f32) -> (f32)
    memref.store %m, %dyn[%tx, %ty, %tz] : memref<?x?x?xf32>
    gpu.terminator
  }
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)
