// Two launches on two streams that can only finish together: each kernel counts itself in memory that host and
// kernels share, then waits until both have. On the CPU backend each stream is a queue of its own, so the
// second launch runs beside the first instead of after it (before, the first launch ran to completion when it
// was queued, and waited for ever). gpu.wait on both tokens waits for both.
// RUN: gpu-translate --targets=cpu --emit=exe --entry-point=main %s -o %t && env MGPU_BACKEND=cpu timeout 60 %t | FileCheck %s
// RUN: gpu-translate --targets=nvvm:sm_90,rocdl:gfx90a --emit=obj %s -o %t.o

// CHECK: 2
// CHECK-NEXT: 7
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @meet(%count: memref<i32>, %out: memref<2xi32>, %me: index, %value: i32) kernel {
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %before = memref.atomic_rmw addi %one, %count[] : (i32, memref<i32>) -> i32
      scf.while : () -> () {
        %now = memref.atomic_rmw addi %zero, %count[] : (i32, memref<i32>) -> i32
        %waiting = arith.cmpi slt, %now, %two : i32
        scf.condition(%waiting)
      } do {
        scf.yield
      }
      memref.store %value, %out[%me] : memref<2xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0 : i32
    %three = arith.constant 3 : i32
    %four = arith.constant 4 : i32
    %count = gpu.alloc host_shared () : memref<i32>
    %out = gpu.alloc host_shared () : memref<2xi32>
    memref.store %zero, %count[] : memref<i32>
    %s0 = gpu.wait async
    %s1 = gpu.wait async
    %t0 = gpu.launch_func async [%s0] @kernels::@meet blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%count : memref<i32>, %out : memref<2xi32>, %c0 : index, %three : i32)
    %t1 = gpu.launch_func async [%s1] @kernels::@meet blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%count : memref<i32>, %out : memref<2xi32>, %c1 : index, %four : i32)
    gpu.wait [%t0, %t1]
    %n = memref.load %count[] : memref<i32>
    %a = memref.load %out[%c0] : memref<2xi32>
    %b = memref.load %out[%c1] : memref<2xi32>
    %sum = arith.addi %a, %b : i32
    vector.print %n : i32
    vector.print %sum : i32
    return
  }
}
