// RUN: gpu-translate --split-input-file --verify-diagnostics %s

module attributes {gpu.container_module} {
  func.func @f() {
    %t = gpu.wait async
    gpu.wait [%t]
    // expected-error @+1 {{Invalid use of async token (must not follow the synchronous gpu.wait that destroyed its stream): operand of gpu.alloc}}
    %m, %t2 = gpu.alloc async [%t] () : memref<4xf32>
    gpu.wait [%t2]
    return
  }
}

// -----

module {
  func.func @f(%i: i32) {
    // expected-error @+1 {{Invalid gpu.wait operand (must be !gpu.async.token): i32}}
    "gpu.wait"(%i) : (i32) -> ()
    return
  }
}

// -----

module {
  func.func @f() {
    // expected-error @+1 {{Invalid results of gpu.wait (must be at most one !gpu.async.token): i32}}
    %x = "gpu.wait"() : () -> i32
    return
  }
}

// -----

module {
  func.func @f() {
    %t = gpu.wait async
    // expected-error @+2 {{Invalid results of gpu.dealloc (must be at most one !gpu.async.token): !gpu.async.token, !gpu.async.token}}
    // expected-error @+1 {{Invalid gpu.dealloc operand (must be one ranked memref): }}
    %a, %b = "gpu.dealloc"(%t, %t) : (!gpu.async.token, !gpu.async.token) -> (!gpu.async.token, !gpu.async.token)
    return
  }
}

// -----

module {
  func.func @f(%i: i32, %m: memref<4xf32>) {
    // expected-error @+1 {{Invalid gpu.dealloc operand (must be one ranked memref): i32, memref<4xf32>}}
    "gpu.dealloc"(%i, %m) : (i32, memref<4xf32>) -> ()
    return
  }
}
