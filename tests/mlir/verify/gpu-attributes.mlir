// RUN: gpu-translate --split-input-file --verify-diagnostics %s

// The gpu dialect's rules for its attributes on ops of any dialect, as upstream's dialect checks them: the
// launch sizes a function promises, gpu.known_block_size and gpu.known_grid_size, are three i32
// (array<i32: x, y, z>) on func.func, llvm.func and gpu.func alike, and gpu.container_module marks a
// builtin.module. A subgroup reduction's cluster stride needs a cluster size.

// expected-error @below {{Invalid gpu.known_block_size of func.func (must be array<i32: x, y, z>): array<i32: 128, 2>}}
func.func @two_sizes() attributes {gpu.known_block_size = array<i32: 128, 2>} {
  return
}

// -----

// expected-error @below {{Invalid gpu.known_grid_size of func.func (must be array<i32: x, y, z>): array<i64: 4, 4, 1>}}
func.func @wide_sizes() attributes {gpu.known_grid_size = array<i64: 4, 4, 1>} {
  return
}

// -----

gpu.module @lowered {
  // expected-error @below {{Invalid gpu.known_grid_size of llvm.func (must be array<i32: x, y, z>): 16 : i32}}
  llvm.func @scalar_size() attributes {gpu.known_grid_size = 16 : i32} {
    llvm.return
  }
}

// -----

gpu.module @kernels {
  // expected-error @below {{Invalid gpu.known_block_size of gpu.func (must be array<i32: x, y, z>): 64 : i32}}
  gpu.func @scalar_block() kernel attributes {gpu.known_block_size = 64 : i32} {
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // expected-error @below {{Invalid gpu.known_grid_size of gpu.func (must be array<i32: x, y, z>): array<i32: 2, 2, 2, 2>}}
  gpu.func @four_sizes() kernel attributes {gpu.known_grid_size = array<i32: 2, 2, 2, 2>} {
    gpu.return
  }
}

// -----

// expected-error @below {{Invalid gpu.container_module (must mark a builtin.module): gpu.module}}
gpu.module @marked attributes {gpu.container_module} {
}

// -----

// expected-error @below {{Invalid gpu.container_module (must mark a builtin.module): func.func}}
func.func @marked() attributes {gpu.container_module} {
  return
}

// -----

gpu.module @lanes {
  gpu.func @stride_alone(%x: f32) kernel {
    // expected-error @below {{Invalid cluster_stride of gpu.subgroup_reduce (must come with a cluster_size): 2 : i32}}
    %r = "gpu.subgroup_reduce"(%x) <{op = #gpu<all_reduce_op add>, cluster_stride = 2 : i32}> : (f32) -> f32
    gpu.return
  }
}
