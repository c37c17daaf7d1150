// RUN: gpu-translate --split-input-file --verify-diagnostics %s

module attributes {gpu.container_module} {
  func.func @f(%c: index) {
    // expected-error @+1 {{Invalid kernel module (must name a gpu.binary or gpu.module): @missing}}
    gpu.launch_func @missing::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: f32) kernel {
      gpu.return
    }
    gpu.func @not_kernel() {
      gpu.return
    }
  }
  func.func @f(%c: index, %x: f32, %i: i32) {
    // expected-error @+1 {{Invalid kernel (must name a gpu.func kernel, or an llvm.func marked gpu.kernel, in @kernels): @kernels::@nope}}
    gpu.launch_func @kernels::@nope blocks in (%c, %c, %c) threads in (%c, %c, %c)
    // expected-error @+1 {{Invalid kernel (must name a gpu.func kernel, or an llvm.func marked gpu.kernel, in @kernels): @kernels::@not_kernel}}
    gpu.launch_func @kernels::@not_kernel blocks in (%c, %c, %c) threads in (%c, %c, %c)
    // expected-error @+1 {{Invalid kernel operands (must match the 1 parameters of @kernels::@k): 0 operands}}
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    // expected-error @+1 {{Invalid kernel operand #0 (must have type f32): i32}}
    gpu.launch_func @kernels::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) args(%i : i32)
    return
  }
}

// -----

module {
  gpu.binary @b [#gpu.object<#nvvm.target, "">]
  func.func @f(%c: index) {
    // expected-error @+1 {{Invalid gpu.launch_func (must be inside a module with the gpu.container_module attribute): module without it}}
    gpu.launch_func @b::@k blocks in (%c, %c, %c) threads in (%c, %c, %c)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @b [#gpu.object<#nvvm.target, "">]
  func.func @f(%c: f32) {
    // expected-error @+1 {{Invalid launch size (must be an integer or index): f32}}
    gpu.launch_func @b::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : f32
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @b [#gpu.object<#nvvm.target, "">]
  func.func @f(%c: index, %s: i32, %p: i64) {
    // expected-error @+1 {{Invalid async object (must be !llvm.ptr): i64}}
    gpu.launch_func <%p : i64> @b::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) dynamic_shared_memory_size %s
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @b [#gpu.object<#nvvm.target, "">]
  func.func @f(%c: index, %i: i64) {
    // The generic form can mix dimension types; the custom form cannot.
    // expected-error @+1 {{Invalid launch size (must be an integer or index, all of one type index): i64}}
    "gpu.launch_func"(%c, %c, %c, %i, %c, %c) <{kernel = @b::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (index, index, index, i64, index, index) -> ()
    // expected-error @+1 {{Invalid operandSegmentSizes of gpu.launch_func (must add up to the 6 operands): 5}}
    "gpu.launch_func"(%c, %c, %c, %c, %c, %c) <{kernel = @b::@k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, index) -> ()
    // expected-error @+1 {{Invalid kernel (must be @module::@kernel): @k}}
    "gpu.launch_func"(%c, %c, %c, %c, %c, %c) <{kernel = @k, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>}> : (index, index, index, index, index, index) -> ()
    return
  }
}
