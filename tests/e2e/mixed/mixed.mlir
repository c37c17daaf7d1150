// Synchronous forms: alloc, launch with scalars of every size, memcpy back, dealloc.
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#cpu.target, properties = {mgpu.bare_pointers}, "@file:mixed">]

  func.func @run_mixed(%out: memref<8xf64>) {
    %c1 = arith.constant 1 : index
    %a = arith.constant -7 : i8
    %b = arith.constant -1234 : i16
    %c = arith.constant 123456789 : i32
    %d = arith.constant -9876543210123 : i64
    %e = arith.constant 1.5 : f32
    %f = arith.constant -2.25 : f64
    %dev = gpu.alloc () : memref<8xf64>
    gpu.launch_func @kernels::@mixed blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : i8, %b : i16, %c : i32, %d : i64, %e : f32, %f : f64, %dev : memref<8xf64>)
    gpu.memcpy %out, %dev : memref<8xf64>, memref<8xf64>
    gpu.dealloc %dev : memref<8xf64>
    return
  }
}
