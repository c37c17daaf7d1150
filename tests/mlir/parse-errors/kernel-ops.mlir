// RUN: not gpu-translate --split-input-file --emit=mlir %s 2>&1 | FileCheck %s

// Syntax errors of the ops of kernel bodies, each at its file:line:col.

gpu.module @k {
  gpu.func @f(%x: f32, %o: i32) kernel {
    %v, %ok = gpu.shuffle sideways %x, %o, %o : f32
    gpu.return
  }
}
// CHECK: kernel-ops.mlir:[[@LINE-4]]:27: error: Invalid shuffle mode (must be xor, up, down or idx): sideways

// -----

gpu.module @k {
  gpu.func @f() kernel {
    %t = gpu.thread_id w
    gpu.return
  }
}
// CHECK: kernel-ops.mlir:[[@LINE-4]]:24: error: Invalid dimension of gpu.thread_id (must be x, y or z): w

// -----

gpu.module @k {
  gpu.func @f(%m: memref<4xi32>, %i: index, %x: i32) kernel {
    %o = memref.atomic_rmw addz %x, %m[%i] : (i32, memref<4xi32>) -> i32
    gpu.return
  }
}
// CHECK: kernel-ops.mlir:[[@LINE-4]]:28: error: Invalid kind of memref.atomic_rmw (must be one of addf, addi, andi, assign, maximumf, maxnumf, maxs, maxu, minimumf, minnumf, mins, minu, mulf, muli, ori, xori): addz

// -----

// The body of gpu.all_reduce is isolated from above: in the generic form it is parsed so.
gpu.module @k {
  gpu.func @f(%x: i32, %cap: i32) kernel {
    %r = "gpu.all_reduce"(%x) ({
    ^bb0(%a: i32, %b: i32):
      %m = arith.maxsi %a, %b : i32
      %c = arith.minsi %m, %cap : i32
      gpu.yield %c : i32
    }) : (i32) -> i32
    gpu.return
  }
}
// CHECK: kernel-ops.mlir:[[@LINE-6]]:28: error: Invalid use of %cap (must be defined): undefined value
