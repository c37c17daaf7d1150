// cf.assert, in a kernel and on the host. On the CPU target a failed assertion prints its message with the
// block and thread, as CUDA's device assertions print theirs, and that thread stops while the others go on;
// on NVIDIA it is the driver's __assertfail (ptxas accepts the call); on the host, the message on stderr,
// then abort.
// RUN: gpu-translate --targets=cpu --emit=exe --entry-point=main %s -o %t
// RUN: env MGPU_BACKEND=cpu %t 2>&1 | FileCheck %s
// RUN: gpu-translate --targets=cpu --emit=exe --entry-point=host_only %s -o %t.host
// RUN: not --crash %t.host 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: gpu-translate --targets=nvvm:sm_90 --emit=mlir --compile-kernels --gpu-format=assembly %s | gpu-object sm_90 | FileCheck %s --check-prefix=PTX
// RUN: gpu-translate --targets=rocdl:gfx90a --emit=obj %s -o %t.o

// The threads below 5 pass, and every thread of block 0; threads 5 to 7 of block 1 fail, each with its
// message, and only those stop before the store.
// CHECK-DAG: assertions.mlir:[[# @LINE + 22]]: main_kernel: block: [1,0,0], thread: [5,0,0] Assertion `thread index below 5` failed.
// CHECK-DAG: assertions.mlir:[[# @LINE + 21]]: main_kernel: block: [1,0,0], thread: [6,0,0] Assertion `thread index below 5` failed.
// CHECK-DAG: assertions.mlir:[[# @LINE + 20]]: main_kernel: block: [1,0,0], thread: [7,0,0] Assertion `thread index below 5` failed.
// CHECK-DAG: stored 13 of 16
// CHECK-NOT: Assertion
// PTX: .extern .func __assertfail
// PTX: call.uni
// PTX-NEXT: __assertfail,
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0 : i32
  %count = gpu.alloc host_shared () : memref<1xi32>
  memref.store %zero, %count[%c0] : memref<1xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %ok = arith.cmpi ult, %tx, %c5 : index
    %block0 = arith.cmpi eq, %bx, %c0 : index
    %pass = arith.ori %ok, %block0 : i1
    cf.assert %pass, "thread index below 5"
    %one = arith.constant 1 : i32
    %old = memref.atomic_rmw addi %one, %count[%c0] : (i32, memref<1xi32>) -> i32
    gpu.terminator
  }
  %stored = memref.load %count[%c0] : memref<1xi32>
  vector.print str "stored "
  vector.print %stored : i32 punctuation <no_punctuation>
  vector.print str " of 16\n"
  return
}

// HOST: the host's own check failed
func.func @host_only() {
  %f = arith.constant false
  cf.assert %f, "the host's own check failed"
  return
}
