// REQUIRES: ptxas
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %s > %t.mlir
// RUN: gpu-object sm_90 < %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: gpu-object sm_90 < %t.mlir > %t.ptx && ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: gpu-object gfx90a < %t.mlir | FileCheck %s --check-prefix=GCN
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=offload %s | gpu-object cpu | llvm-dis-22 | FileCheck %s --check-prefix=CPU

// A math function of f16 or bf16 that is not exact is computed in f32, its operands extended and its
// result rounded back, as upstream's lowering does: from libdevice's f32 function on NVIDIA (__nv_expf,
// linked in), the target's own f32 instruction on AMD, the f32 function on the CPU. sqrt is exact, and
// stays in f16.

// PTX-NOT: .extern .func
// PTX: .visible .entry k(
// PTX: cvt.f32.f16
// PTX: cvt.rn.f16.f32
// PTX: cvt.f32.bf16
// PTX: cvt.rn.bf16.f32
// PTX-NOT: call
// PTX: ret;

// GCN: k:
// GCN: v_cvt_f32_f16
// GCN: v_exp_f32
// GCN: v_cvt_f16_f32

// CPU: fpext half %{{.*}} to float
// CPU: call float @llvm.exp.f32(float
// CPU: fptrunc float %{{.*}} to half

module attributes {gpu.container_module} {
  gpu.module @h [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx90a">, #cpu.target] {
    gpu.func @k(%p: memref<4xf16>, %q: memref<4xbf16>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %x = memref.load %p[%c0] : memref<4xf16>
      %a = math.exp %x : f16
      %b = math.sqrt %a : f16
      %c = math.rsqrt %b : f16
      memref.store %c, %p[%c0] : memref<4xf16>
      %y = memref.load %q[%c0] : memref<4xbf16>
      %g = math.exp2 %y : bf16
      %h = math.log %g : bf16
      memref.store %h, %q[%c0] : memref<4xbf16>
      gpu.return
    }
  }
}
