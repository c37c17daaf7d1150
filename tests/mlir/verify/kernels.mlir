// RUN: gpu-translate --split-input-file --verify-diagnostics %s

// Kernel signatures and where they live, as upstream's verifier has them.

// expected-error @+1 {{Invalid gpu.func (must be inside a gpu.module): builtin.module}}
gpu.func @k() kernel {
  gpu.return
}

// -----

gpu.module @m {
  // expected-error @+1 {{Invalid gpu.func kernel (must return nothing): (i32)}}
  gpu.func @k() -> i32 kernel {
    %c = arith.constant 1 : i32
    gpu.return %c : i32
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{Invalid known_block_size of gpu.func (must be array<i32: x, y, z> of sizes >= 1): array<i32: 32, 0, 1>}}
  gpu.func @k() kernel attributes {known_block_size = array<i32: 32, 0, 1>} {
    gpu.return
  }
}

// -----

// expected-error @+1 {{Invalid gpu.module target (must be a target attribute such as #nvvm.target): 1 : i64}}
gpu.module @m [1] {
}

// -----

func.func @f(%s: index) {
  // expected-error @+1 {{Invalid gpu.alloc symbol operands (must be one per symbol of the layout, which has none): 1}}
  %m = gpu.alloc () [%s] : memref<4xf32>
  return
}

// -----

// A kernel lowered to llvm.func in a gpu.module is launched like a gpu.func kernel; a memref operand is its
// pointer to element 0.
module attributes {gpu.container_module} {
  gpu.module @lowered {
    llvm.func @k(%p: !llvm.ptr, %n: i32) attributes {gpu.kernel} {
      llvm.return
    }
    llvm.func @helper() {
      llvm.return
    }
  }
  func.func @f(%m: memref<4xf32>, %n: i32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @lowered::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>, %n : i32)
    // expected-error @+1 {{Invalid kernel (must name a gpu.func kernel, or an llvm.func marked gpu.kernel, in @lowered): @lowered::@helper}}
    gpu.launch_func @lowered::@helper blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// An attribution's llvm.align is the alignment of its memory: a power of 2, as LLVM takes it.
gpu.module @m {
  // expected-error @+1 {{Invalid llvm.align of workgroup attribution 1 of gpu.func (must be an integer power of 2, at most 2^31): 24 : i64}}
  gpu.func @k() workgroup(%a : memref<4xf32, #gpu.address_space<workgroup>>, %b : memref<4xf32, #gpu.address_space<workgroup>> {llvm.align = 24 : i64}) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{Invalid llvm.align of private attribution 0 of gpu.func (must be an integer power of 2, at most 2^31): "16"}}
  gpu.func @k() private(%a : memref<4xf32, #gpu.address_space<private>> {llvm.align = "16"}) kernel {
    gpu.return
  }
}

// -----

"gpu.module"() <{sym_name = "m"}> ({
  // expected-error @+1 {{Invalid workgroup_attrib_attrs of gpu.func (must be an array of dictionaries, one per attribution): [16]}}
  "gpu.func"() <{function_type = () -> (), workgroup_attrib_attrs = [16 : i64]}> ({
  ^bb0(%a: memref<4xf32, #gpu.address_space<workgroup>>):
    "gpu.return"() : () -> ()
  }) {sym_name = "k", workgroup_attributions = 1 : i64} : () -> ()
}) : () -> ()

// -----

// LLVM's C interface takes alignments of 32 bits.
gpu.module @m {
  // expected-error @+1 {{Invalid llvm.align of workgroup attribution 0 of gpu.func (must be an integer power of 2, at most 2^31): 4294967296 : i64}}
  gpu.func @k() workgroup(%a : memref<4xf32, #gpu.address_space<workgroup>> {llvm.align = 4294967296 : i64}) kernel {
    gpu.return
  }
}
