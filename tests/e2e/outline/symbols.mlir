// A gpu.launch whose body uses functions and a global of the host module: outlining copies @f, @g, @h
// and @scale into the kernel's module, as upstream does, and the host keeps its own.
module attributes {gpu.container_module} {
  llvm.mlir.global internal constant @scale(3.0 : f32) : f32
  func.func @square(%x: f32) -> f32 {
    %r = arith.mulf %x, %x : f32
    return %r : f32
  }
  func.func @f(%x: f32) -> f32 {
    %r = func.call @square(%x) : (f32) -> f32
    return %r : f32
  }
  func.func @g(%x: f32) -> f32 {
    %p = llvm.mlir.addressof @scale : !llvm.ptr
    %s = llvm.load %p : !llvm.ptr -> f32
    %r = arith.mulf %x, %s : f32
    return %r : f32
  }
  // out[i] = 3 * i * i, on the device; returns g(2) = 6, on the host.
  func.func @symbols(%out: memref<64xf32>) -> f32 {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %i = arith.index_cast %tx : index to i32
      %x = arith.sitofp %i : i32 to f32
      %a = func.call @f(%x) : (f32) -> f32
      %b = func.call @g(%a) : (f32) -> f32
      memref.store %b, %out[%tx] : memref<64xf32>
      gpu.terminator
    }
    %two = arith.constant 2.0 : f32
    %r = func.call @g(%two) : (f32) -> f32
    return %r : f32
  }
}
