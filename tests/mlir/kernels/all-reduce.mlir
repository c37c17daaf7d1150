// REQUIRES: ptxas
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %s > %t.mlir
// RUN: gpu-object sm_90 < %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: gpu-object sm_90 < %t.mlir > %t.ptx && ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: gpu-object gfx90a < %t.mlir | FileCheck %s --check-prefix=GCN
// RUN: gpu-translate --emit=mlir %s | gpu-translate --emit=mlir - | FileCheck %s --check-prefix=ROUND
// RUN: gpu-translate --emit=mlir %s | mlir-opt-22 > /dev/null
// RUN: sed 's/chip = "gfx90a"/chip = "gfx1100", features = "+wavefrontsize64"/' %s > %t.rdna.mlir
// RUN: not gpu-translate --emit=mlir --compile-kernels %t.rdna.mlir 2>&1 | FileCheck %s --check-prefix=RDNA

// gpu.all_reduce combines the values of a whole block: each subgroup by a butterfly of xor exchanges (five
// shfl.sync.bfly over a warp, six ds_bpermute over a gfx90a wavefront of 64), lane 0 of each keeps its
// subgroup's result in workgroup memory (one slot per subgroup and one for the total), a barrier, the first
// subgroup combines those the same way, a second barrier, and every thread reads the total. On NVIDIA the
// shuffles name only the lanes that exist (a mask computed from the block's size, not -1), since the last
// subgroup of a block may be partial. tests/e2e/outline/allreduce.mlir checks what the CPU computes.

// PTX: .visible .entry sum(
// PTX: .shared .align 4 .b8 __mgpu_all_reduce[132];
// PTX: mov.b32 [[ONES:%r[0-9]+]], -1;
// PTX-NEXT: shr.u32 [[MASK:%r[0-9]+]], [[ONES]], %r{{[0-9]+}};
// PTX-COUNT-5: shfl.sync.bfly.b32 {{.*}}, 31, [[MASK]];
// PTX: bar.sync 0;
// PTX-COUNT-5: shfl.sync.bfly.b32 {{.*}}, 31, [[MASK]];
// PTX: bar.sync 0;
// PTX-NOT: shfl
// PTX-NOT: bar.sync
// PTX: ret;
// PTX: .visible .entry body(
// PTX: .shared .align 8 .b8 __mgpu_all_reduce1[264];
// PTX-COUNT-20: shfl.sync.bfly.b32
// PTX-NOT: shfl
// PTX: ret;
// PTX: .visible .entry nested(
// PTX-COUNT-10: shfl.sync.bfly.b32
// PTX-NOT: shfl
// PTX: ret;
// A value of 128 bits is exchanged in four 32-bit pieces.
// PTX: .visible .entry wide(
// PTX-COUNT-20: shfl.sync.bfly.b32
// PTX-NOT: shfl
// PTX: ret;
// PTX: .visible .entry known(
// PTX-NOT: min.u32
// PTX-COUNT-5: shfl.sync.bfly.b32 {{.*}}, 31, -1;
// PTX: bar.sync 0;
// PTX-COUNT-5: shfl.sync.bfly.b32 {{.*}}, 31, -1;
// PTX: bar.sync 0;
// PTX: ret;

// GCN: sum:
// GCN-COUNT-6: ds_bpermute_b32
// GCN: s_barrier
// GCN-COUNT-6: ds_bpermute_b32
// GCN: s_barrier
// GCN-NOT: ds_bpermute_b32
// GCN: s_endpgm

// On RDNA chips, ds_bpermute reads only within each half of a wavefront of 64.
// RDNA: {{.*}}rdna.mlir:[[@LINE+15]]:12: error: Invalid gpu.all_reduce for #rocdl.target<chip = "gfx1100", features = "+wavefrontsize64"> (must run in wavefronts of 32 on an RDNA chip: ds_bpermute does not read across the halves of a wavefront of 64): +wavefrontsize64

// ROUND: %{{.*}} = gpu.all_reduce add %{{.*}} uniform {
// ROUND-NEXT: } : (f32) -> f32
// ROUND: %{{.*}} = gpu.all_reduce %{{.*}} {
// ROUND-NEXT: ^bb0(%[[A:.*]]: i64, %[[B:.*]]: i64):
// ROUND-NEXT: %[[S:.*]] = arith.maxsi %[[A]], %[[B]] : i64
// ROUND-NEXT: gpu.yield %[[S]] : i64
// ROUND-NEXT: } : (i64) -> i64

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx90a">] {
    gpu.func @sum(%a: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %a[%t] : memref<?xf32>
      %s = gpu.all_reduce add %v uniform {} : (f32) -> f32
      memref.store %s, %a[%t] : memref<?xf32>
      gpu.return
    }
    gpu.func @body(%a: memref<?xi64>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %a[%t] : memref<?xi64>
      %s = gpu.all_reduce %v {
      ^bb0(%x: i64, %y: i64):
        %m = arith.maxsi %x, %y : i64
        gpu.yield %m : i64
      } : (i64) -> i64
      memref.store %s, %a[%t] : memref<?xi64>
      gpu.return
    }
    // A body with a region of its own is translated anew at each of the butterfly's combinations.
    gpu.func @nested(%a: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %a[%t] : memref<?xf32>
      %s = gpu.all_reduce %v {
      ^bb0(%x: f32, %y: f32):
        %c = arith.cmpf ogt, %x, %y : f32
        %m = scf.if %c -> (f32) {
          scf.yield %x : f32
        } else {
          scf.yield %y : f32
        }
        gpu.yield %m : f32
      } : (f32) -> f32
      memref.store %s, %a[%t] : memref<?xf32>
      gpu.return
    }
    gpu.func @wide(%a: memref<?xi128>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %a[%t] : memref<?xi128>
      %s = gpu.subgroup_reduce add %v : (i128) -> i128
      memref.store %s, %a[%t] : memref<?xi128>
      gpu.return
    }
    // A block of 64 x 2 threads, whole subgroups: the shuffles take the whole warp, no lane is checked.
    gpu.func @known(%a: memref<?xf32>) kernel attributes {known_block_size = array<i32: 64, 2, 1>} {
      %t = gpu.thread_id x
      %v = memref.load %a[%t] : memref<?xf32>
      %s = gpu.all_reduce add %v uniform {} : (f32) -> f32
      memref.store %s, %a[%t] : memref<?xf32>
      gpu.return
    }
  }
}
