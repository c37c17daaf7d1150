// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir %s | gpu-translate --emit=mlir | FileCheck %s
// RUN: gpu-translate --emit=mlir --mlir-print-op-generic %s | gpu-translate --emit=mlir | FileCheck %s

// The ops of kernel bodies print as upstream writes them and read back the same, from the custom and the
// generic form: gpu indices, lanes, barrier, shuffle and dynamic shared memory; math; memref; scf.

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    // CHECK-LABEL: gpu.func @ops
    gpu.func @ops(%m: memref<16x4xf32>, %a: memref<4xi32>, %n: index, %x: f32) private(%p: memref<4xf32, #gpu.address_space<private>>) kernel {
      // CHECK: %[[T:.*]] = gpu.thread_id x
      %t = gpu.thread_id x
      // CHECK-NEXT: gpu.block_id y
      %b = gpu.block_id y
      // CHECK-NEXT: gpu.block_dim z upper_bound 128
      %bd = gpu.block_dim z upper_bound 128
      // CHECK-NEXT: gpu.grid_dim x
      %gd = gpu.grid_dim x
      // CHECK-NEXT: gpu.global_id x
      %g = gpu.global_id x
      // CHECK-NEXT: gpu.lane_id
      %l = gpu.lane_id
      // CHECK-NEXT: gpu.subgroup_size : index
      %s = gpu.subgroup_size : index
      // CHECK-NEXT: gpu.barrier
      gpu.barrier
      %off = arith.constant 1 : i32
      %w = arith.constant 32 : i32
      // CHECK: %shuffleResult, %valid = gpu.shuffle down %{{.*}}, %c1_i32, %c32_i32 : f32
      %v, %ok = gpu.shuffle down %x, %off, %w : f32
      // CHECK-NEXT: gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      // CHECK-NEXT: math.sqrt %{{.*}} fastmath<fast> : f32
      %q = math.sqrt %v fastmath<fast> : f32
      // CHECK-NEXT: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
      %f = math.fma %q, %q, %x : f32
      // CHECK-NEXT: math.powf %{{.*}}, %{{.*}} : f32
      %pw = math.powf %f, %x : f32
      // CHECK-NEXT: arith.cmpf olt, %{{.*}}, %{{.*}} : f32
      %lt = arith.cmpf olt, %pw, %x : f32
      // CHECK-NEXT: arith.maximumf %{{.*}}, %{{.*}} : f32
      %mx = arith.maximumf %pw, %x : f32
      // CHECK-NEXT: arith.negf %{{.*}} : f32
      %ng = arith.negf %mx : f32
      // CHECK-NEXT: memref.load %{{.*}}[%[[T]], %{{.*}}] : memref<16x4xf32>
      %e = memref.load %m[%t, %b] : memref<16x4xf32>
      // CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<4xf32, #gpu.address_space<private>>
      memref.store %e, %p[%b] : memref<4xf32, #gpu.address_space<private>>
      // CHECK-NEXT: memref.alloca() : memref<8xf32>
      %al = memref.alloca() : memref<8xf32>
      %one = arith.constant 1 : i32
      // CHECK: memref.atomic_rmw addi %{{.*}}, %{{.*}}[%{{.*}}] : (i32, memref<4xi32>) -> i32
      %old = memref.atomic_rmw addi %one, %a[%b] : (i32, memref<4xi32>) -> i32
      %c0 = arith.constant 0 : index
      // CHECK: memref.dim %{{.*}}, %{{.*}} : memref<16x4xf32>
      %dim = memref.dim %m, %c0 : memref<16x4xf32>
      %c1 = arith.constant 1 : index
      // CHECK: %{{.*}} = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
      %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
        // CHECK-NEXT: arith.addf %[[ACC]], %{{.*}} : f32
        %nx = arith.addf %acc, %e : f32
        // CHECK-NEXT: scf.yield %{{.*}} : f32
        scf.yield %nx : f32
      }
      // CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
      scf.for %j = %c0 to %n step %c1 {
        // CHECK-NEXT: gpu.barrier
        gpu.barrier
        // CHECK-NEXT: scf.yield
      }
      // CHECK: scf.if %{{.*}} -> (f32) {
      %r = scf.if %lt -> (f32) {
        scf.yield %sum : f32
      // CHECK: } else {
      } else {
        scf.yield %x : f32
      }
      // CHECK: scf.while (%[[W:.*]] = %{{.*}}) : (index) -> index {
      %fin = scf.while (%k = %c0) : (index) -> index {
        %more = arith.cmpi slt, %k, %n : index
        // CHECK: scf.condition(%{{.*}}) %[[W]] : index
        scf.condition(%more) %k : index
      // CHECK: } do {
      // CHECK-NEXT: ^bb0(%[[K:.*]]: index):
      } do {
      ^bb0(%k2: index):
        %k3 = arith.addi %k2, %c1 : index
        // CHECK: scf.yield %{{.*}} : index
        scf.yield %k3 : index
      }
      gpu.return
    }
  }
}
