// RUN: gpu-translate --split-input-file --verify-diagnostics %s

// The rules upstream's GPU dialect verifies on the ops mgpu shares with it, each reported on the op upstream
// reports it at, so that input upstream rejects is rejected here too; tests/mlir/parse-errors/upstream-rules.mlir
// holds those its parser enforces.

// A launch needs all three grid and all three block sizes.
module attributes {gpu.container_module} {
  gpu.binary @objs [#gpu.object<#rocdl.target, "">]
  func.func @five_sizes(%w: i32) {
    // expected-error @below {{Invalid gpu.launch_func grid and block sizes (must be one value each): 0}}
    "gpu.launch_func"(%w, %w, %w, %w, %w) <{kernel = @objs::@go, operandSegmentSizes = array<i32: 0, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (i32, i32, i32, i32, i32) -> ()
    return
  }
}

// -----

// Kernel symbols resolve only in a module marked as a container.
func.func @unmarked(%w: i64) {
  // expected-error @below {{Invalid gpu.launch_func (must be inside a module with the gpu.container_module attribute): module without it}}
  gpu.launch_func @objs::@go blocks in (%w, %w, %w) threads in (%w, %w, %w) : i64
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @objs [#gpu.object<#rocdl.target, "">]
  func.func @no_kernel_attr(%w: index) {
    // expected-error @below {{Invalid kernel (must be @module::@kernel): none}}
    "gpu.launch_func"(%w, %w, %w, %w, %w, %w) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, index) -> ()
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @nowhere(%w: index) {
    // expected-error @below {{Invalid kernel module (must name a gpu.binary or gpu.module): @vanished}}
    gpu.launch_func @vanished::@go blocks in (%w, %w, %w) threads in (%w, %w, %w)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  module @host_only {
    // expected-error @below {{Invalid gpu.func (must be inside a gpu.module): builtin.module}}
    gpu.func @misplaced(%q: !llvm.ptr) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  module @host_only {
  }
  func.func @into_builtin(%w: index) {
    // expected-error @below {{Invalid kernel module (must name a gpu.binary or gpu.module): @host_only}}
    gpu.launch_func @host_only::@go blocks in (%w, %w, %w) threads in (%w, %w, %w)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @device_side {
  }
  func.func @absent_kernel(%w: index) {
    // expected-error @below {{Invalid kernel (must name a gpu.func kernel, or an llvm.func marked gpu.kernel, in @device_side): @device_side::@go}}
    gpu.launch_func @device_side::@go blocks in (%w, %w, %w) threads in (%w, %w, %w)
    return
  }
}

// -----

// A function of the right name in a builtin module is still not a kernel container.
module attributes {gpu.container_module} {
  module @host_only {
    func.func @go(%q: !llvm.ptr) {
      return
    }
  }
  func.func @into_builtin(%w: index, %q: !llvm.ptr) {
    // expected-error @below {{Invalid kernel module (must name a gpu.binary or gpu.module): @host_only}}
    gpu.launch_func @host_only::@go blocks in (%w, %w, %w) threads in (%w, %w, %w) args(%q : !llvm.ptr)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @device_side {
    gpu.func @device_helper(%q: !llvm.ptr) {
      gpu.return
    }
  }
  func.func @launch_helper(%w: index, %q: !llvm.ptr) {
    // expected-error @below {{Invalid kernel (must name a gpu.func kernel, or an llvm.func marked gpu.kernel, in @device_side): @device_side::@device_helper}}
    gpu.launch_func @device_side::@device_helper blocks in (%w, %w, %w) threads in (%w, %w, %w) args(%q : !llvm.ptr)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @device_side {
    gpu.func @unary(%v: i16) kernel {
      gpu.return
    }
  }
  func.func @surplus(%w: index, %v: i16) {
    // expected-error @below {{Invalid kernel operands (must match the 1 parameters of @device_side::@unary): 3 operands}}
    gpu.launch_func @device_side::@unary blocks in (%w, %w, %w) threads in (%w, %w, %w) args(%v : i16, %v : i16, %v : i16)
    return
  }
}

// -----

// Each operand must have its kernel parameter's type.
module attributes {gpu.container_module} {
  gpu.module @device_side {
    gpu.func @scale(%v: f64, %q: !llvm.ptr) kernel {
      gpu.return
    }
  }
  func.func @mismatched(%w: index, %v: f32, %q: !llvm.ptr) {
    // expected-error @below {{Invalid kernel operand #0 (must have type f64): f32}}
    gpu.launch_func @device_side::@scale blocks in (%w, %w, %w) threads in (%w, %w, %w) args(%v : f32, %q : !llvm.ptr)
    return
  }
}

// -----

gpu.module @device_side {
  // expected-error @below {{Invalid gpu.func (must have a function_type): i64}}
  "gpu.func"() ({
    gpu.return
  }) {sym_name = "go", function_type = i64} : () -> ()
}

// -----

gpu.module @device_side {
  gpu.func @void_helper() {
    %x = arith.constant 7 : i16
    // expected-error @below {{Invalid gpu.return operands (must match the function's results ()): (i16)}}
    gpu.return %x : i16
  }
}

// -----

gpu.module @device_side {
  // expected-error @below {{Invalid gpu.func kernel (must return nothing): (i16)}}
  gpu.func @returns_value() -> i16 kernel {
    %x = arith.constant 7 : i16
    gpu.return %x : i16
  }
}

// -----

gpu.module @device_side {
  // expected-error @below {{Invalid entry block arguments (must start with the function type's inputs (f64) and its 4 workgroup attributions): (f64, memref<8xi16, 3>, memref<8xi16, 3>)}}
  "gpu.func"() ({
  ^bb0(%x: f64, %s: memref<8xi16, 3>, %t: memref<8xi16, 3>):
    "gpu.return"() : () -> ()
  }) {function_type = (f64) -> (), gpu.kernel, sym_name = "go", workgroup_attributions = 4 : i64} : () -> ()
}

// -----

gpu.module @device_side {
  // expected-error @below {{Invalid gpu.func body (must have at least one block): empty region}}
  "gpu.func"() ({}) {function_type = (i16) -> (), gpu.kernel, sym_name = "go"} : () -> ()
}

// -----

func.func @copy_elements(%to: memref<32xi16>, %from: memref<32xf16>) {
  // expected-error @below {{Invalid gpu.memcpy operands (must have the same shape and element type): memref<32xi16> and memref<32xf16>}}
  gpu.memcpy %to, %from : memref<32xi16>, memref<32xf16>
  return
}

// -----

func.func @copy_shapes(%to: memref<2x8xi16>, %from: memref<8x2xi16>) {
  // expected-error @below {{Invalid gpu.memcpy operands (must have the same shape and element type): memref<2x8xi16> and memref<8x2xi16>}}
  gpu.memcpy %to, %from : memref<2x8xi16>, memref<8x2xi16>
  return
}

// -----

func.func @fill_type(%to: memref<?xi16>, %v: f16) {
  // expected-error @below {{Invalid gpu.memset value (must have the element type i16): f16}}
  gpu.memset %to, %v : memref<?xi16>, f16
  return
}

// -----

// A layout with a symbol would need a symbol operand; mgpu allocates identity layouts only, which
// rejects the op on the same line.
func.func @alloc_layout_symbol() {
  // expected-error @below {{Invalid gpu.alloc layout (must be the identity layout): strided<[1], offset: ?>}}
  %m = gpu.alloc() : memref<64xf16, strided<[1], offset: ?>>
  return
}

// -----

func.func @alloc_surplus_symbol(%s: index) {
  // expected-error @below {{Invalid gpu.alloc symbol operands (must be one per symbol of the layout, which has none): 1}}
  %m = gpu.alloc()[%s] : memref<3x3xi16>
  return
}

// -----

func.func @alloc_surplus_size(%d: index) {
  // expected-error @below {{Invalid gpu.alloc sizes (must give one index per dynamic dimension, 1): 3 sizes}}
  %m = gpu.alloc(%d, %d, %d) : memref<5x?xi16>
  return
}

// -----

func.func @alloc_missing_size(%d: index) {
  // expected-error @below {{Invalid gpu.alloc sizes (must give one index per dynamic dimension, 2): 1 sizes}}
  %m = gpu.alloc(%d) : memref<?x?xf64>
  return
}

// -----

gpu.module @device_side {
  // expected-error @below {{Invalid known_grid_size of gpu.func (must be array<i32: x, y, z> of sizes >= 1): 128 : i32}}
  gpu.func @scalar_hint() kernel attributes {known_grid_size = 128 : i32} {
    gpu.return
  }
}

// -----

gpu.module @device_side {
  // expected-error @below {{Invalid known_block_size of gpu.func (must be array<i32: x, y, z> of sizes >= 1): array<i32: 8, 8, 8, 8>}}
  gpu.func @four_hints() kernel attributes {known_block_size = array<i32: 8, 8, 8, 8>} {
    gpu.return
  }
}

// -----

// expected-error @below {{Invalid gpu.module targets (must list at least one target attribute): []}}
gpu.module @no_targets [] {
}

// -----

// expected-error @below {{Invalid gpu.module target (must be a target attribute such as #nvvm.target): 42 : i64}}
gpu.module @number_target [42] {
}

// -----

// expected-error @below {{Invalid gpu.binary objects (must be a non-empty array of #gpu.object): []}}
gpu.binary @nothing []

// -----

// expected-error @below {{Invalid offloading handler (must be an offloading handler attribute): 3 : i64}}
gpu.binary @numbered <3> [#gpu.object<#cpu.target, "">]

// -----

// Memory attributions: each is a memref in its own address space.
gpu.module @device_side {
  // expected-error @below {{Invalid workgroup attribution (must be a memref, in no #gpu.address_space but <workgroup>): i16}}
  gpu.func @shared_scalar() workgroup(%s: i16) kernel {
    gpu.return
  }
}

// -----

gpu.module @device_side {
  // expected-error @below {{Invalid workgroup attribution (must be a memref, in no #gpu.address_space but <workgroup>): memref<16xf64, #gpu.address_space<private>>}}
  gpu.func @shared_private() workgroup(%s: memref<16xf64, #gpu.address_space<private>>) kernel {
    gpu.return
  }
}

// -----

gpu.module @device_side {
  // expected-error @below {{Invalid private attribution (must be a memref, in no #gpu.address_space but <private>): memref<16xf64, #gpu.address_space<workgroup>>}}
  gpu.func @private_shared() private(%s: memref<16xf64, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
}
