// A program of upstream's ROCm integration tests' kind: host memory registered with gpu.host_register, its
// device view from mgpuMemGetDeviceMemRef1dFloat (a memref returned by value), printed with printMemrefF32.
// Lowered by upstream's passes, linked with libmgpu and libmgpu_runner_utils, it runs on the CPU backend.
module {
  func.func private @mgpuMemGetDeviceMemRef1dFloat(memref<?xf32>) -> memref<?xf32>
  func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %m = memref.alloc(%c4) : memref<?xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %half = arith.constant 0.5 : f32
      %v = arith.addf %f, %half : f32
      memref.store %v, %m[%i] : memref<?xf32>
    }
    %u = memref.cast %m : memref<?xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    %d = call @mgpuMemGetDeviceMemRef1dFloat(%m) : (memref<?xf32>) -> memref<?xf32>
    %seven = arith.constant 7.25 : f32
    memref.store %seven, %d[%c1] : memref<?xf32>
    %du = memref.cast %d : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%du) : (memref<*xf32>) -> ()
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %m : memref<?xf32>
    return
  }
}
