// REQUIRES: mlir-opt-22, ptxas
// RUN: sed -e 's/, #nvvm.target<chip = "sm_80">, #rocdl.target<chip = "gfx90a">, #cpu.target//' -e 's/ <#gpu.runtime_select>//' %S/../../../examples/kernels/matmul.mlir > %t.nvvm.src.mlir
// RUN: mlir-opt-22 %t.nvvm.src.mlir -convert-scf-to-cf -convert-gpu-to-nvvm=use-bare-ptr-memref-call-conv=1 -reconcile-unrealized-casts > %t.nvvm.mlir
// RUN: gpu-translate --emit=mlir %t.nvvm.mlir | mlir-opt-22 > /dev/null
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %t.nvvm.mlir | gpu-object nvvm > %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: sed -e 's/#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80">, //' -e 's/, #cpu.target//' -e 's/ <#gpu.runtime_select>//' %S/../../../examples/kernels/reduce.mlir > %t.rocdl.src.mlir
// RUN: mlir-opt-22 %t.rocdl.src.mlir -convert-scf-to-cf "-convert-gpu-to-rocdl=use-bare-ptr-memref-call-conv=1 chipset=gfx90a" -reconcile-unrealized-casts > %t.rocdl.mlir
// RUN: gpu-translate --emit=mlir %t.rocdl.mlir | mlir-opt-22 > /dev/null
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %t.rocdl.mlir | gpu-object rocdl | FileCheck %s --check-prefix=GCN

// The low level that gpu-module-to-binary takes: kernels that upstream's own convert-gpu-to-nvvm and
// convert-gpu-to-rocdl have lowered to the llvm, nvvm and rocdl dialects read back, print in a form
// mlir-opt-22 reads, and compile. The NVVM matmul calls __nv_fmaf, which comes from libdevice, so ptxas
// finds nothing unresolved; its workgroup memory is llvm.mlir.global in address space 3; its nvvm.maxntid
// (from known_block_size) is the kernel's .maxntid.

// PTX-NOT: .extern
// PTX: .visible .entry matmul(
// PTX: .maxntid 16, 16, 1
// PTX-DAG: .shared .align 16 .b8 __wg_matmul_0[1024];
// PTX-DAG: .shared .align 16 .b8 __wg_matmul_1[1024];
// PTX: bar.sync 0;
// PTX: fma.rn.f32
// PTX: st.global.f32

// GCN: reduce:
// GCN: v_mbcnt_lo_u32_b32
// GCN-COUNT-5: ds_bpermute_b32
// GCN: .amdhsa_kernel reduce
