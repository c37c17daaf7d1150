// The synchronous launch loop of launch_bench.mlir, for upstream mlir-translate-22 (its blob is filled in
// by prepare.sh, since upstream has no --embed).
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "@file:axpy">]

  llvm.func @upstream_sync(%a: f32, %x: !llvm.ptr, %y: !llvm.ptr, %n: i32, %iters: i64) {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %gx = llvm.mlir.constant(4096 : i64) : i64
    %bx = llvm.mlir.constant(256 : i64) : i64
    llvm.br ^loop(%c0 : i64)
  ^loop(%i: i64):
    %done = llvm.icmp "sge" %i, %iters : i64
    llvm.cond_br %done, ^exit, ^body
  ^body:
    gpu.launch_func @kernels::@axpy blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) : i64
        args(%a : f32, %x : !llvm.ptr, %y : !llvm.ptr, %n : i32)
    %next = llvm.add %i, %c1 : i64
    llvm.br ^loop(%next : i64)
  ^exit:
    llvm.return
  }
}
