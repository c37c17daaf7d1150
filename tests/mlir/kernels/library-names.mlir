// REQUIRES: ptxas
// RUN: not gpu-translate --split-input-file --emit=obj %s -o %t.o 2>&1 | FileCheck %s
// RUN: not ls %t.o

// The compiled code calls functions of the target's library by name: libdevice's __nv_* on NVIDIA, libm's
// and the C library's on the CPU. A function of the gpu.module by such a name is a located error: calls
// meant for the library reached it before, and libdevice's function replaced the one exported by that name.
// A declaration of it is taken when it has the library's type.

// CHECK: library-names.mlir:[[# @LINE + 2]]:3: error: Invalid function name for #nvvm.target<chip = "sm_90"> (must not be that of a libdevice function the compiled code calls): @__nv_expf
gpu.module @same_type [#nvvm.target<chip = "sm_90">] {
  func.func @__nv_expf(%x: f32) -> f32 {
    %y = arith.addf %x, %x : f32
    return %y : f32
  }
  gpu.func @k(%p: memref<2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = memref.load %p[%c0] : memref<2xf32>
    %e = math.exp %v : f32
    memref.store %e, %p[%c0] : memref<2xf32>
    %w = memref.load %p[%c1] : memref<2xf32>
    %f = func.call @__nv_expf(%w) : (f32) -> f32
    memref.store %f, %p[%c1] : memref<2xf32>
    gpu.return
  }
}

// -----

// A different type made the call undefined, and LLVM left the kernel empty.
// CHECK: library-names.mlir:[[# @LINE + 2]]:3: error: Invalid function name for #nvvm.target<chip = "sm_90"> (must not be that of a libdevice function the compiled code calls): @__nv_expf
gpu.module @other_type [#nvvm.target<chip = "sm_90">] {
  func.func @__nv_expf(%x: i32) -> i32 {
    return %x : i32
  }
  gpu.func @k(%p: memref<2xf32>, %q: memref<2xi32>) kernel {
    %c0 = arith.constant 0 : index
    %v = memref.load %p[%c0] : memref<2xf32>
    %e = math.exp %v : f32
    memref.store %e, %p[%c0] : memref<2xf32>
    %i = memref.load %q[%c0] : memref<2xi32>
    %j = func.call @__nv_expf(%i) : (i32) -> i32
    memref.store %j, %q[%c0] : memref<2xi32>
    gpu.return
  }
}

// -----

// CHECK: library-names.mlir:[[# @LINE + 2]]:3: error: Invalid declaration of @__nv_expf for #nvvm.target<chip = "sm_90"> (must have the type of libdevice's function, float (float)): double (double)
gpu.module @declared [#nvvm.target<chip = "sm_90">] {
  func.func private @__nv_expf(f64) -> f64
  gpu.func @k(%p: memref<2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %v = memref.load %p[%c0] : memref<2xf32>
    %e = math.exp %v : f32
    memref.store %e, %p[%c0] : memref<2xf32>
    gpu.return
  }
}

// -----

// CHECK: library-names.mlir:[[# @LINE + 2]]:3: error: Invalid function name for #cpu.target (must not be that of a libm function the compiled code calls): @tanhf
gpu.module @libm [#cpu.target] {
  func.func @tanhf(%x: f32) -> f32 {
    return %x : f32
  }
  gpu.func @k(%p: memref<2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %v = memref.load %p[%c0] : memref<2xf32>
    %e = math.tanh %v : f32
    memref.store %e, %p[%c0] : memref<2xf32>
    gpu.return
  }
}

// -----

// Private memory too large for the stack comes from the C library's aligned_alloc and goes back to its free.
// CHECK: library-names.mlir:[[# @LINE + 2]]:3: error: Invalid function name for #cpu.target (must not be that of a C library function the compiled code calls): @free
gpu.module @heap [#cpu.target] {
  func.func @free(%x: f32) -> f32 {
    return %x : f32
  }
  gpu.func @k(%p: memref<1024xf32>) private(%a : memref<4096xf32, #gpu.address_space<private>>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %v = memref.load %p[%t] : memref<1024xf32>
    memref.store %v, %a[%t] : memref<4096xf32, #gpu.address_space<private>>
    gpu.barrier
    %w = memref.load %a[%c0] : memref<4096xf32, #gpu.address_space<private>>
    %f = func.call @free(%w) : (f32) -> f32
    memref.store %f, %p[%t] : memref<1024xf32>
    gpu.return
  }
}

// -----

// A kernel is a function of the module too: the CPU exports it by its name.
// CHECK: library-names.mlir:[[# @LINE + 2]]:3: error: Invalid function name for #cpu.target (must not be that of a libm function the compiled code calls): @tanhf
gpu.module @kernel_name [#cpu.target] {
  gpu.func @tanhf(%p: memref<2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %v = memref.load %p[%c0] : memref<2xf32>
    %e = math.tanh %v : f32
    memref.store %e, %p[%c0] : memref<2xf32>
    gpu.return
  }
}

// -----

// The CPU's back end computes math.exp with libm's expf, which found the module's expf, a kernel here.
// CHECK: library-names.mlir:[[# @LINE + 2]]:3: error: Invalid function name for #cpu.target (must not be that of a libm function the compiled code calls): @expf
gpu.module @back_end [#cpu.target] {
  gpu.func @expf(%p: memref<2xf32>) kernel {
    gpu.return
  }
  gpu.func @k(%p: memref<2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %v = memref.load %p[%c0] : memref<2xf32>
    %e = math.exp %v : f32
    memref.store %e, %p[%c0] : memref<2xf32>
    gpu.return
  }
}

// -----

// LLVM may turn a printf of a plain string into puts.
// CHECK: library-names.mlir:[[# @LINE + 2]]:3: error: Invalid function name for #cpu.target (must not be that of a C library function the compiled code calls): @puts
gpu.module @puts [#cpu.target] {
  func.func @puts(%x: i32) -> i32 {
    return %x : i32
  }
  gpu.func @k() kernel {
    gpu.printf "hello\n"
    gpu.return
  }
}
