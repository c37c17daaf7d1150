// REQUIRES: ptxas
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %s > %t.mlir
// RUN: gpu-object sm_90 < %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: gpu-object sm_90 < %t.mlir > %t.ptx && ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: gpu-object gfx90a < %t.mlir | FileCheck %s --check-prefix=GCN
// RUN: gpu-translate --emit=mlir %s | gpu-translate --emit=mlir - | FileCheck %s --check-prefix=ROUND
// RUN: not gpu-translate --emit=obj %S/Inputs/subgroup-too-wide.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=WIDE

// gpu.subgroup_reduce is a butterfly of xor exchanges: on NVIDIA five shfl.sync.bfly over the warp's 32 lanes,
// on AMD six ds_bpermute over the wavefront's 64 (gfx90a); a cluster of 4 lanes with stride 2 takes the
// offsets 2 and 4; a 64-bit value is exchanged in two halves. tests/e2e/outline/subgroup.mlir checks what
// the CPU computes.

// PTX: .visible .entry whole(
// PTX-COUNT-5: shfl.sync.bfly.b32 {{.*}}, 31, -1;
// PTX-NOT: shfl
// PTX: ret;
// PTX: .visible .entry cluster(
// PTX: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// PTX: max.s32
// PTX: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// PTX: max.s32
// PTX-NOT: shfl
// PTX: ret;
// PTX: .visible .entry wide(
// PTX-COUNT-10: shfl.sync.bfly.b32
// PTX-NOT: shfl
// PTX: ret;

// GCN: whole:
// GCN-COUNT-6: ds_bpermute_b32
// GCN-NOT: ds_bpermute
// GCN: s_endpgm

// ROUND: gpu.subgroup_reduce add %{{.*}} : (f32) -> f32
// ROUND: gpu.subgroup_reduce maxsi %{{.*}} uniform cluster(size = 4, stride = 2) : (i32) -> i32
// ROUND: gpu.subgroup_reduce add %{{.*}} : (f64) -> f64

// WIDE: subgroup-too-wide.mlir:4:12: error: Invalid cluster of gpu.subgroup_reduce for #nvvm.target<chip = "sm_90"> (must fit in a subgroup of 32 lanes): size 64, stride 1

module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx90a">] {
    gpu.func @whole(%p: memref<64xf32>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %p[%t] : memref<64xf32>
      %s = gpu.subgroup_reduce add %x : (f32) -> f32
      memref.store %s, %p[%t] : memref<64xf32>
      gpu.return
    }
    gpu.func @cluster(%p: memref<64xi32>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %p[%t] : memref<64xi32>
      %s = gpu.subgroup_reduce maxsi %x uniform cluster(size = 4, stride = 2) : (i32) -> i32
      memref.store %s, %p[%t] : memref<64xi32>
      gpu.return
    }
    gpu.func @wide(%p: memref<64xf64>) kernel {
      %t = gpu.thread_id x
      %x = memref.load %p[%t] : memref<64xf64>
      %s = gpu.subgroup_reduce add %x : (f64) -> f64
      memref.store %s, %p[%t] : memref<64xf64>
      gpu.return
    }
  }
}
