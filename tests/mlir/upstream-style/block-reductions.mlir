// Upstream's way to write a GPU program, unmodified: host memrefs allocated and filled on the host, cast to
// unranked for gpu.host_register and the runner utilities, a gpu.launch whose blocks reduce their row, and
// the result printed by printMemrefI32, and gpu.host_unregister before the memory is freed. One program, four
// reductions of three rows of five.
// RUN: gpu-translate --targets=cpu --emit=exe --entry-point=main %s -o %t && env MGPU_BACKEND=cpu %t | FileCheck %s
// RUN: gpu-translate --targets=nvvm:sm_90,rocdl:gfx90a --emit=obj %s -o %t.o

// CHECK: [0, 0, 0]
// CHECK: [7, -2, -1]
// CHECK: [0, -2, -2]
// CHECK: [4, 6, 10]
func.func @main() {
  %rows = arith.constant 3 : index
  %cols = arith.constant 5 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %data = memref.alloc() : memref<3x5xi32>
  %and = memref.alloc() : memref<3xi32>
  %or = memref.alloc() : memref<3xi32>
  %min = memref.alloc() : memref<3xi32>
  %max = memref.alloc() : memref<3xi32>
  // Row r holds r*r + c*(r+1) - 3*r, here filled element by element from the host.
  scf.for %r = %c0 to %rows step %c1 {
    scf.for %c = %c0 to %cols step %c1 {
      %ri = arith.index_cast %r : index to i32
      %ci = arith.index_cast %c : index to i32
      %one = arith.constant 1 : i32
      %three = arith.constant 3 : i32
      %rr = arith.muli %ri, %ri : i32
      %r1 = arith.addi %ri, %one : i32
      %cr = arith.muli %ci, %r1 : i32
      %r3 = arith.muli %ri, %three : i32
      %s = arith.addi %rr, %cr : i32
      %v = arith.subi %s, %r3 : i32
      memref.store %v, %data[%r, %c] : memref<3x5xi32>
    }
  }
  %udata = memref.cast %data : memref<3x5xi32> to memref<*xi32>
  %uand = memref.cast %and : memref<3xi32> to memref<*xi32>
  %uor = memref.cast %or : memref<3xi32> to memref<*xi32>
  %umin = memref.cast %min : memref<3xi32> to memref<*xi32>
  %umax = memref.cast %max : memref<3xi32> to memref<*xi32>
  gpu.host_register %udata : memref<*xi32>
  gpu.host_register %uand : memref<*xi32>
  gpu.host_register %uor : memref<*xi32>
  gpu.host_register %umin : memref<*xi32>
  gpu.host_register %umax : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %rows, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %cols, %sy = %c1, %sz = %c1) {
    %v = memref.load %data[%bx, %tx] : memref<3x5xi32>
    %a = gpu.all_reduce and %v uniform {} : (i32) -> (i32)
    %o = gpu.all_reduce or %v uniform {} : (i32) -> (i32)
    %lo = gpu.all_reduce minsi %v uniform {} : (i32) -> (i32)
    %hi = gpu.all_reduce maxsi %v uniform {} : (i32) -> (i32)
    memref.store %a, %and[%bx] : memref<3xi32>
    memref.store %o, %or[%bx] : memref<3xi32>
    memref.store %lo, %min[%bx] : memref<3xi32>
    memref.store %hi, %max[%bx] : memref<3xi32>
    gpu.terminator
  }
  call @printMemrefI32(%uand) : (memref<*xi32>) -> ()
  call @printMemrefI32(%uor) : (memref<*xi32>) -> ()
  call @printMemrefI32(%umin) : (memref<*xi32>) -> ()
  call @printMemrefI32(%umax) : (memref<*xi32>) -> ()
  gpu.host_unregister %udata : memref<*xi32>
  memref.dealloc %data : memref<3x5xi32>
  return
}

func.func private @printMemrefI32(memref<*xi32>)
