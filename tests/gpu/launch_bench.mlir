// Launch-overhead benchmark: loops of synchronous and of asynchronous axpy launches (1M elements).
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {mgpu.bare_pointers}, bin = "@file:axpy">]

  llvm.func @bench_sync(%a: f32, %x: !llvm.ptr, %y: !llvm.ptr, %n: i32, %iters: i64) {
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

  llvm.func @bench_async(%a: f32, %x: !llvm.ptr, %y: !llvm.ptr, %n: i32, %iters: i64) {
    %c0 = llvm.mlir.constant(0 : i64) : i64
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %gx = llvm.mlir.constant(4096 : i64) : i64
    %bx = llvm.mlir.constant(256 : i64) : i64
    %t0 = gpu.wait async
    cf.br ^loop(%c0, %t0 : i64, !gpu.async.token)
  ^loop(%i: i64, %t: !gpu.async.token):
    %done = llvm.icmp "sge" %i, %iters : i64
    llvm.cond_br %done, ^exit, ^body
  ^body:
    %t2 = gpu.launch_func async [%t] @kernels::@axpy blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) : i64
        args(%a : f32, %x : !llvm.ptr, %y : !llvm.ptr, %n : i32)
    %next = llvm.add %i, %c1 : i64
    cf.br ^loop(%next, %t2 : i64, !gpu.async.token)
  ^exit:
    gpu.wait [%t]
    llvm.return
  }
}
