// RUN: gpu-translate --split-input-file --verify-diagnostics %s

// The rules of the ops of kernel bodies, each reported where the op is.

gpu.module @k {
  gpu.func @f(%m: memref<4x4xf32>, %i: index) kernel {
    // expected-error @below {{Invalid indices of memref.load (must be one per dimension, 2): 1}}
    %v = "memref.load"(%m, %i) : (memref<4x4xf32>, index) -> f32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%m: memref<4xf32>, %i: index, %x: i32) kernel {
    // expected-error @below {{Invalid value of memref.store (must be the element type f32): i32}}
    "memref.store"(%x, %m, %i) : (i32, memref<4xf32>, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%m: memref<4xi32>, %i: index, %x: i32) kernel {
    // expected-error @below {{Invalid value of memref.atomic_rmw addf (must be a float): i32}}
    %o = memref.atomic_rmw addf %x, %m[%i] : (i32, memref<4xi32>) -> i32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%n: index) kernel {
    // expected-error @below {{Invalid sizes of memref.alloca (must be one per dynamic dimension, 2): 1}}
    %a = memref.alloca(%n) : memref<?x?xf32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%x: f32, %o: i32) kernel {
    %h = arith.truncf %x : f32 to f16
    // expected-error @below {{Invalid value of gpu.shuffle (must be i32, i64, f32 or f64): f16}}
    %v, %ok = "gpu.shuffle"(%h, %o, %o) <{mode = #gpu<shuffle_mode xor>}> : (f16, i32, i32) -> (f16, i1)
    gpu.return
  }
}


// -----

func.func @host() {
  // expected-error @below {{Invalid gpu.barrier (must be inside a function of a gpu.module or a gpu.launch): host code}}
  gpu.barrier
  return
}

// -----

gpu.module @k {
  gpu.func @f(%x: f32, %y: f64) kernel {
    // expected-error @below {{Invalid operand types of math.powf (must all be f32): f64}}
    %p = "math.powf"(%x, %y) : (f32, f64) -> f32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%i: i32) kernel {
    // expected-error @below {{Invalid operand of math.sqrt (must be a float): i32}}
    %p = "math.sqrt"(%i) : (i32) -> i32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%x: f32) kernel {
    // expected-error @below {{Invalid operand of math.ctpop (must be a signless integer or index): f32}}
    %p = math.ctpop %x : f32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%i: i32) kernel {
    // expected-error @below {{Invalid operand types of math.ctlz (must all be i64): i32}}
    %p = "math.ctlz"(%i) : (i32) -> i64
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%x: f32) kernel {
    // expected-error @below {{Invalid result of math.isnan (must be i1): f32}}
    %p = "math.isnan"(%x) : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%i: i32) kernel {
    // expected-error @below {{Invalid operand of math.isinf (must be a float): i32}}
    %p = math.isinf %i : i32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%n: index, %x: f32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @below {{Invalid scf.for (must yield (f32)): (i32)}}
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %x) -> (f32) {
      %c = arith.constant 1 : i32
      scf.yield %c : i32
    }
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%c: i1, %x: f32) kernel {
    // expected-error @below {{Invalid scf.if (must have an else region when it has results): no else}}
    %r = scf.if %c -> (f32) {
      scf.yield %x : f32
    }
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%x: f32) kernel {
    %i = arith.constant 1 : i32
    // expected-error @below {{Invalid operand of arith.cmpf (must be a float): i32}}
    %b = "arith.cmpf"(%i, %i) <{predicate = 1 : i64}> : (i32, i32) -> i1
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f() kernel {
    %c = arith.constant true
    scf.if %c {
      // expected-error @below {{Invalid scf.condition (must end the before region of scf.while): scf.if}}
      "scf.condition"(%c) : (i1) -> ()
    }
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %m1 = arith.constant -1 : index
    // expected-error @below {{Invalid step of scf.for (must be positive): -1}}
    scf.for %i = %c0 to %n step %m1 {
      gpu.barrier
    }
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @below {{Invalid scf.for (must compare its bounds as signed; unsignedCmp is not supported): unsignedCmp}}
    "scf.for"(%c0, %n, %c1) <{unsignedCmp}> ({
    ^bb0(%i: index):
      "scf.yield"() : () -> ()
    }) : (index, index, index) -> ()
    gpu.return
  }
}

// -----

// The custom form refuses an initializer region; the generic form must not bring one in, to be dropped.
module {
  // expected-error @below {{Invalid llvm.mlir.global (must have no initializer region; give its value instead): an initializer region}}
  "llvm.mlir.global"() ({
    %c = llvm.mlir.constant(1 : i32) : i32
    // expected-error @below {{Invalid llvm.return (must be inside llvm.func or func.func): llvm.mlir.global}}
    llvm.return %c : i32
  }) {sym_name = "g", global_type = i32, linkage = #llvm.linkage<internal>} : () -> ()
}

// -----

// Globals LLVM has no form for, and attributes it would take without asking: as upstream, errors.
module {
  // expected-error @below {{Invalid type of llvm.mlir.global (must be a valid element type for an LLVM global): !llvm.void}}
  llvm.mlir.global external @v() : !llvm.void
  // expected-error @below {{Invalid type of llvm.mlir.global (must be a valid element type for an LLVM global): index}}
  llvm.mlir.global internal @i() : index
  // expected-error @below {{Invalid alignment of llvm.mlir.global (must be a power of 2): 3 : i64}}
  llvm.mlir.global internal @a() {alignment = 3 : i64} : i32
  // expected-error @below {{Invalid addr_space of llvm.mlir.global (must be a non-negative 32-bit integer): -1 : i32}}
  llvm.mlir.global internal @s() {addr_space = -1 : i32} : i32
}

// -----

gpu.module @k {
  gpu.func @f(%p: memref<4xf32>) kernel {
    // expected-error @below {{Invalid argument of gpu.printf (must be an integer, index or float): memref<4xf32>}}
    gpu.printf "%p\n", %p : memref<4xf32>
    gpu.return
  }
}

// -----

func.func @host(%x: i32) {
  // expected-error @below {{Invalid gpu.printf (must be inside a function of a gpu.module or a gpu.launch): host code}}
  gpu.printf "%d\n", %x : i32
  return
}

// -----

gpu.module @k {
  // expected-error @below {{Invalid initial_value of memref.global (must be uninitialized or dense elements of type tensor<4xf32>): dense<1.000000e+00> : tensor<2xf32>}}
  "memref.global"() <{sym_name = "g", type = memref<4xf32>, initial_value = dense<1.0> : tensor<2xf32>}> : () -> ()
}

// -----

gpu.module @k {
  // expected-error @below {{Invalid type of memref.global (must have a static shape and the identity layout): memref<?xf32>}}
  memref.global @g : memref<?xf32> = uninitialized
}

// -----

gpu.module @k {
  memref.global @g : memref<4xf32> = uninitialized
  gpu.func @f() kernel {
    // expected-error @below {{Invalid result of memref.get_global (must be the global's type, memref<4xf32>): memref<4xi32>}}
    %g = memref.get_global @g : memref<4xi32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f() kernel {
    // expected-error @below {{Invalid memref.get_global (must name a memref.global): @missing}}
    %g = memref.get_global @missing : memref<4xi32>
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%x: f32) kernel {
    // expected-error @below {{Invalid and of gpu.subgroup_reduce (must reduce integers): f32}}
    %r = gpu.subgroup_reduce and %x : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @k {
  gpu.func @f(%x: i32) kernel {
    // expected-error @below {{Invalid cluster_size of gpu.subgroup_reduce (must be a power of 2 up to 64): 3 : i32}}
    %r = gpu.subgroup_reduce add %x cluster(size = 3) : (i32) -> i32
    gpu.return
  }
}

// -----

func.func @host(%x: i32) -> i32 {
  // expected-error @below {{Invalid gpu.subgroup_reduce (must be inside a function of a gpu.module or a gpu.launch): host code}}
  %r = gpu.subgroup_reduce add %x : (i32) -> i32
  return %r : i32
}

// -----

// expected-error @below {{Invalid type of memref.global (must have fewer than 2^63 elements): memref<4294967296x4294967296x4294967296xf32>}}
memref.global @huge : memref<4294967296x4294967296x4294967296xf32> = uninitialized

// -----

// expected-error @below {{Invalid sym_visibility of memref.global (must be "public", "private" or "nested"): "weird"}}
memref.global "weird" @g : memref<4xf32> = uninitialized

// -----

func.func @f() {
  // expected-error @below {{Invalid memref.global (must be in a builtin.module or gpu.module): in func.func}}
  memref.global @g : memref<4xf32> = uninitialized
  return
}
