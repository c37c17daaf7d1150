// REQUIRES: ptxas
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %s > %t.mlir
// RUN: gpu-object nvvm < %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: gpu-object nvvm < %t.mlir > %t.ptx && ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: gpu-object rocdl < %t.mlir | FileCheck %s --check-prefix=GCN

// Every math function of the subset in one kernel. NVPTX computes sqrt, fma, fabs, floor, ceil and exp2
// itself; the rest come from libdevice, linked in and inlined, so that ptxas finds no unresolved
// __nv_* function. AMDGPU computes exp, exp2, log and log2 itself, besides the exact ones; tanh, erf, pow
// (as exp2(y * log2 x) it fails for a negative base), sin and cos (no range reduction) need ocml, so the
// rocdl kernel leaves them out.

// PTX-NOT: .extern .func
// PTX: .visible .entry all(
// PTX-DAG: sqrt.rn.f32
// PTX-DAG: fma.rn.f32
// PTX-DAG: abs.f32
// PTX-DAG: ex2.approx
// PTX-NOT: call

// GCN: native:
// GCN-DAG: v_sqrt_f32
// GCN-DAG: v_exp_f32
// GCN-DAG: v_log_f32
// GCN-NOT: s_swappc
module attributes {gpu.container_module} {
  gpu.module @nv [#nvvm.target<chip = "sm_90">] {
    gpu.func @all(%p: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %p[%c0] : memref<16xf32>
      %a = math.sqrt %x : f32
      %b = math.rsqrt %a : f32
      %c = math.fma %a, %b, %x : f32
      %d = math.absf %c : f32
      %e = math.exp %d : f32
      %f = math.exp2 %e : f32
      %g = math.log %f : f32
      %h = math.log2 %g : f32
      %i = math.sin %h : f32
      %j = math.cos %i : f32
      %k = math.tanh %j : f32
      %l = math.powf %k, %x : f32
      %m = math.floor %l : f32
      %n = math.ceil %m : f32
      %o = math.erf %n : f32
      memref.store %o, %p[%c0] : memref<16xf32>
      gpu.return
    }
  }
  gpu.module @amd [#rocdl.target<chip = "gfx90a">] {
    gpu.func @native(%p: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %p[%c0] : memref<16xf32>
      %a = math.sqrt %x : f32
      %b = math.rsqrt %a : f32
      %c = math.fma %a, %b, %x : f32
      %d = math.absf %c : f32
      %e = math.exp %d : f32
      %f = math.exp2 %e : f32
      %g = math.log %f : f32
      %h = math.log2 %g : f32
      %m = math.floor %h : f32
      %n = math.ceil %m : f32
      memref.store %n, %p[%c0] : memref<16xf32>
      gpu.return
    }
  }
}
