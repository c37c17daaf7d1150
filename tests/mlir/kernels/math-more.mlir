// REQUIRES: ptxas
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %s > %t.mlir
// RUN: gpu-object sm_90 < %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: gpu-object sm_90 < %t.mlir > %t.ptx && ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: gpu-object gfx90a < %t.mlir | FileCheck %s --check-prefix=GCN
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %S/Inputs/math-more-floats.mlir > %t.floats.mlir
// RUN: gpu-object sm_90 < %t.floats.mlir | FileCheck %s --check-prefix=FLOATS
// RUN: gpu-object sm_90 < %t.floats.mlir > %t.floats.ptx && ptxas -arch=sm_90 %t.floats.ptx -o %t.floats.cubin
// RUN: gpu-object cpu < %t.floats.mlir | FileCheck %s --check-prefix=CPU
// RUN: gpu-translate --emit=mlir %s | gpu-translate --emit=mlir - | FileCheck %s --check-prefix=ROUND
// RUN: gpu-translate --emit=mlir %S/Inputs/math-more-floats.mlir | gpu-translate --emit=mlir - | FileCheck %s --check-prefix=ROUNDF
// RUN: not gpu-translate --emit=obj %S/Inputs/math-more-amd.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=AMDLIB

// The functions that no target computes natively (tan, the inverse and hyperbolic functions, log10,
// log1p, expm1, cbrt, erfc, atan2) come from libdevice on NVIDIA, linked in so that ptxas finds nothing
// unresolved, and from libm on the CPU; on AMD they need ocml, a located error without it. roundeven, the
// integer functions (absi, ctlz, cttz, ctpop: defined at zero, as upstream's) and the float classes are
// LLVM intrinsics that every target computes itself. tests/e2e/outline/math.mlir checks their numbers on
// the CPU against the C library.

// PTX-NOT: .extern .func
// PTX: .visible .entry ints(
// PTX-DAG: abs.s32
// PTX-DAG: clz.b32
// PTX-DAG: popc.b64
// PTX-DAG: cvt.rni.f32.f32
// PTX-NOT: call
// PTX: ret;
// FLOATS-NOT: .extern .func
// FLOATS: .visible .entry floats(
// FLOATS-NOT: call
// FLOATS: ret;

// GCN: ints:
// GCN-DAG: s_abs_i32
// GCN-DAG: s_flbit_i32_b32
// GCN-DAG: s_ff1_i32_b32
// GCN-DAG: v_bcnt_u32_b32
// GCN-DAG: v_rndne_f32
// GCN-DAG: v_cmp_class_f64
// GCN-NOT: s_swappc

// CPU-DAG: tanf
// CPU-DAG: atan2f
// CPU-DAG: erfcf

// ROUND: %{{.*}} = math.ctlz %{{.*}} : i32
// ROUND: %{{.*}} = math.ctpop %{{.*}} : i64
// ROUND: %{{.*}} = math.isnan %{{.*}} : f32
// ROUND: %{{.*}} = math.isnormal %{{.*}} {fastmath = #arith.fastmath<nnan>} : f64
// ROUNDF: %{{.*}} = math.atan2 %{{.*}}, %{{.*}} fastmath<fast> : f32

// AMDLIB: math-more-amd.mlir:4:12: error: Invalid math.cbrt on f32 for #rocdl.target<chip = "gfx90a"> (must be a function the target computes natively, or ROCm's device libraries (ocml) must be linked): cbrt

module attributes {gpu.container_module} {
  gpu.module @ints [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx90a">, #cpu.target] {
    gpu.func @ints(%p: memref<4xi32>, %q: memref<4xi64>, %r: memref<4xf32>, %s: memref<4xf64>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %a = memref.load %p[%c0] : memref<4xi32>
      %b = math.absi %a : i32
      %c = math.ctlz %b : i32
      %d = math.cttz %c : i32
      memref.store %d, %p[%c0] : memref<4xi32>
      %w = memref.load %q[%c0] : memref<4xi64>
      %e = math.ctpop %w : i64
      memref.store %e, %q[%c0] : memref<4xi64>
      %x = memref.load %r[%c0] : memref<4xf32>
      %y = math.roundeven %x : f32
      memref.store %y, %r[%c0] : memref<4xf32>
      %n = math.isnan %x : f32
      %z = memref.load %s[%c0] : memref<4xf64>
      %m = math.isnormal %z {fastmath = #arith.fastmath<nnan>} : f64
      %both = arith.andi %n, %m : i1
      %i = arith.extui %both : i1 to i32
      memref.store %i, %p[%c1] : memref<4xi32>
      gpu.return
    }
  }
}
