// RUN: gpu-translate --split-input-file --verify-diagnostics %s

module {
  func.func @f(%n: index) {
    // expected-error @+1 {{Invalid gpu.alloc sizes (must give one index per dynamic dimension, 2): 1 sizes}}
    %m = gpu.alloc (%n) : memref<?x?xf32>
    return
  }
}

// -----

module {
  func.func @f() {
    // expected-error @+1 {{Invalid gpu.alloc element type (must be an integer, index or float): !llvm.ptr}}
    %m = gpu.alloc () : memref<4x!llvm.ptr>
    return
  }
}

// -----

module {
  func.func @f(%a: memref<4xf32>, %b: memref<8xf32>, %c: memref<4xi32>) {
    // expected-error @+1 {{Invalid gpu.memcpy operands (must have the same shape and element type): memref<4xf32> and memref<8xf32>}}
    gpu.memcpy %a, %b : memref<4xf32>, memref<8xf32>
    // expected-error @+1 {{Invalid gpu.memcpy operands (must have the same shape and element type): memref<4xf32> and memref<4xi32>}}
    gpu.memcpy %a, %c : memref<4xf32>, memref<4xi32>
    return
  }
}

// -----

module {
  func.func @f(%a: memref<4xf32>, %v: i32, %d: memref<4xf64>, %w: f64) {
    // expected-error @+1 {{Invalid gpu.memset value (must have the element type f32): i32}}
    gpu.memset %a, %v : memref<4xf32>, i32
    // expected-error @+1 {{Invalid gpu.memset element type (must be 16 or 32 bits wide): f64}}
    gpu.memset %d, %w : memref<4xf64>, f64
    return
  }
}

// -----

module {
  func.func @f(%a: memref<4xf32>) {
    // expected-error @+1 {{Invalid gpu.host_register operand (must be an unranked memref): memref<4xf32>}}
    gpu.host_register %a : memref<4xf32>
    return
  }
}

// -----

func.func @f() {
  // expected-error @+1 {{Invalid gpu.alloc memref (must have a size in bytes below 2^63): memref<4294967296x4294967296xf32>}}
  %m = gpu.alloc () : memref<4294967296x4294967296xf32>
  return
}
