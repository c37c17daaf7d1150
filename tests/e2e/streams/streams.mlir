// Streams in and out of generated code: axpy runs twice on a stream the caller made, each time after a
// token of mgpu's own stream and with the event recorded where that token was produced. The caller's
// stream stays the caller's; mgpu's streams end when nothing uses their tokens any more.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, properties = {mgpu.bare_pointers}, bin = "@file:axpy">]

  llvm.func @on_stream(%s: !llvm.ptr, %a: f32, %x: !llvm.ptr, %y: !llvm.ptr, %n: i32) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %gx = llvm.mlir.constant(4 : i64) : i64
    %bx = llvm.mlir.constant(256 : i64) : i64
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] <%s : !llvm.ptr> @kernels::@axpy blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) : i64
        args(%a : f32, %x : !llvm.ptr, %y : !llvm.ptr, %n : i32)
    %t2 = gpu.launch_func async [%t1] <%s : !llvm.ptr> @kernels::@axpy blocks in (%gx, %c1, %c1) threads in (%bx, %c1, %c1) : i64
        args(%a : f32, %x : !llvm.ptr, %y : !llvm.ptr, %n : i32)
    gpu.wait [%t2]
    %u = gpu.wait async
    llvm.return
  }
}
