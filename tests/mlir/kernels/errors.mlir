// RUN: not gpu-translate --split-input-file --emit=obj %s -o %t.o 2>&1 | FileCheck %s
// RUN: not gpu-translate --emit=obj --ptxas=/bin/false %S/../../../examples/kernels/axpy.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: not gpu-translate --emit=obj --ptxas=%t.missing %S/../../../examples/kernels/axpy.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// RUN: not ls %t.o

// What a target cannot compile is a located error that names the op and the target, before LLVM runs
// (an intrinsic a back end cannot lower would abort the process); a failing ptxas shows its message at
// the gpu.module; no output file is left.

// CHECK: errors.mlir:[[# @LINE + 4]]:12: error: Invalid math.tanh on f32 for #rocdl.target<chip = "gfx90a"> (must be a function the target computes natively, or ROCm's device libraries (ocml) must be linked): tanh
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx90a">] {
    gpu.func @f(%x: f32, %out: memref<1xf32>) kernel {
      %t = math.tanh %x : f32
      %c0 = arith.constant 0 : index
      memref.store %t, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}

// -----

// CHECK: errors.mlir:[[# @LINE + 2]]:3: error: Invalid CPU (must be one LLVM knows for nvptx64-nvidia-cuda, such as {{.*}}): sm_999
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_999">] {
    gpu.func @f() kernel {
      gpu.return
    }
  }
}

// -----

// Modules and targets compile side by side; when several fail, the error is the first in program order,
// and only it is reported.
// CHECK: errors.mlir:[[# @LINE + 3]]:3: error: Invalid CPU (must be one LLVM knows for amdgcn-amd-amdhsa, such as {{.*}}): gfx999
// CHECK-NOT: error:
module attributes {gpu.container_module} {
  gpu.module @first [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx999">] {
    gpu.func @f() kernel {
      gpu.return
    }
  }
  gpu.module @second [#nvvm.target<chip = "sm_998">, #rocdl.target<chip = "gfx90a">] {
    gpu.func @g(%x: f32, %out: memref<1xf32>) kernel {
      %t = math.tanh %x : f32
      %c0 = arith.constant 0 : index
      memref.store %t, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}

// -----

// A device function gets a bare pointer (only kernels take descriptors), so a memref whose strides are known
// only at run time cannot be addressed there.
// CHECK: errors.mlir:[[# @LINE + 5]]:12: error: Invalid memref for a kernel (must have static strides, or strides the kernel was given: with bare pointers a kernel gets none): memref<4x?xf32>
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    func.func @f(%m: memref<4x?xf32>) {
      %c0 = arith.constant 0 : index
      %v = memref.load %m[%c0, %c0] : memref<4x?xf32>
      return
    }
  }
}

// -----

// The same when the dynamic dimension is innermost and an even one precedes it (the strides of the outer
// dimensions were once computed as 0, and the element addresses silently wrong).
// CHECK: errors.mlir:[[# @LINE + 5]]:12: error: Invalid memref for a kernel (must have static strides, or strides the kernel was given: with bare pointers a kernel gets none): memref<4x2x?xf32>
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    func.func @f(%m: memref<4x2x?xf32>) {
      %c0 = arith.constant 0 : index
      %v = memref.load %m[%c0, %c0, %c0] : memref<4x2x?xf32>
      return
    }
  }
}

// -----

// CHECK: errors.mlir:[[# @LINE + 3]]:10: error: Invalid gpu.thread_id (must be inside a function of a gpu.module or a gpu.launch): host code
module attributes {gpu.container_module} {
  func.func @host() -> index {
    %t = gpu.thread_id x
    return %t : index
  }
}

// -----

// An op of one target's dialect in a module compiled for another.
// CHECK: errors.mlir:[[# @LINE + 4]]:12: error: Invalid nvvm.read.ptx.sreg.tid.x for #rocdl.target<chip = "gfx90a"> (must be compiled for #nvvm.target)
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx90a">] {
    llvm.func @f() attributes {gpu.kernel, rocdl.kernel} {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      llvm.return
    }
  }
}

// -----

// An error that LLVM's back end reports is a located error, and the process goes on to report it.
// CHECK: errors.mlir:[[# @LINE + 2]]:3: error: Invalid kernels for #rocdl.target<chip = "gfx90a"> (must be accepted by LLVM's back end): local memory (400000) exceeds limit (65536) in function 'f'
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx90a">] {
    gpu.func @f(%out: memref<1xf32>) workgroup(%w: memref<100000xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %t = gpu.thread_id x
      %x = arith.constant 1.0 : f32
      memref.store %x, %w[%t] : memref<100000xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %v = memref.load %w[%c0] : memref<100000xf32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}

// -----

// CHECK: errors.mlir:[[# @LINE + 4]]:12: error: Invalid math.powf on f32 for #rocdl.target<chip = "gfx90a"> (must be a function the target computes natively, or ROCm's device libraries (ocml) must be linked): powf
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx90a">] {
    gpu.func @f(%x: f32, %out: memref<1xf32>) kernel {
      %p = math.powf %x, %x : f32
      %c0 = arith.constant 0 : index
      memref.store %p, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}

// -----

// CHECK: errors.mlir:[[# @LINE + 2]]:3: error: Invalid CPU (must be one LLVM knows for {{.*}}): nosuchcpu
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target<chip = "nosuchcpu">] {
    gpu.func @f() kernel {
      gpu.return
    }
  }
}

// -----

// CHECK: errors.mlir:[[# @LINE + 2]]:3: error: Invalid CPU feature (must be +NAME or -NAME of a feature LLVM knows for {{.*}}): +nosuchfeature
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target<features = "+nosuchfeature">] {
    gpu.func @f() kernel {
      gpu.return
    }
  }
}

// PTXAS: axpy.mlir:5:3: error: Invalid kernels for ptxas (must be accepted; it exited with 1):
// NOPTXAS: axpy.mlir:5:3: error: Invalid ptxas (must be an executable file): {{.*}}.missing

// -----

// A global in an address space the back end cannot place one in ended the process.
// CHECK: errors.mlir:[[# @LINE + 3]]:5: error: Invalid address space of memref.global for #rocdl.target<chip = "gfx90a"> (must be generic, global, workgroup or constant memory: 0, 1, 3 or 4): 5
module attributes {gpu.container_module} {
  gpu.module @k [#rocdl.target<chip = "gfx90a">] {
    memref.global "private" @g : memref<4xf32, #gpu.address_space<private>> = uninitialized
    gpu.func @f(%out: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %g = memref.get_global @g : memref<4xf32, #gpu.address_space<private>>
      %v = memref.load %g[%t] : memref<4xf32, #gpu.address_space<private>>
      memref.store %v, %out[%t] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// CHECK: errors.mlir:[[# @LINE + 3]]:5: error: Invalid address space of llvm.mlir.global for #nvvm.target<chip = "sm_90"> (must be generic, global, workgroup or constant memory: 0, 1, 3 or 4): 7
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    llvm.mlir.global internal @g(0 : i32) {addr_space = 7 : i32} : i32
    gpu.func @f() kernel {
      gpu.return
    }
  }
}

// -----

// Workgroup memory starts undefined in every block: an initial value was dropped on NVIDIA.
// CHECK: errors.mlir:[[# @LINE + 3]]:5: error: Invalid memref.global in workgroup memory for #nvvm.target<chip = "sm_90"> (must have no initial value: every block's workgroup memory starts undefined)
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    memref.global "private" @g : memref<4xf32, #gpu.address_space<workgroup>> = dense<1.0>
    gpu.func @f() kernel {
      gpu.return
    }
  }
}

// -----

// On the CPU one global would be shared by the blocks that run in parallel.
// CHECK: errors.mlir:[[# @LINE + 3]]:5: error: Invalid memory space of memref.global for #cpu.target (must be the generic or global one: workgroup memory is each block's own): #gpu.address_space<workgroup>
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target] {
    memref.global "private" @g : memref<4xf32, #gpu.address_space<workgroup>> = uninitialized
    gpu.func @f() kernel {
      gpu.return
    }
  }
}

// -----

// The CPU's back end computes math.exp with libm's expf, which found this table.
// CHECK: errors.mlir:[[# @LINE + 3]]:5: error: Invalid global name for #cpu.target (must not be that of a libm function the compiled code calls): @expf
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target] {
    memref.global "private" constant @expf : memref<4xf32> = dense<1.0>
    gpu.func @f(%x: f32, %out: memref<1xf32>) kernel {
      %e = math.exp %x : f32
      %c0 = arith.constant 0 : index
      memref.store %e, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}

// -----

// CHECK: errors.mlir:[[# @LINE + 2]]:3: error: Invalid global name (must not clash with a runtime function): @mgpuLaunchKernel
module attributes {gpu.container_module} {
  memref.global @mgpuLaunchKernel : memref<4xf32> = uninitialized
}

// -----

// A section holds no more; LLVM wrapped the size of such an array silently, and the object was built.
// CHECK: errors.mlir:[[# @LINE + 3]]:5: error: Invalid memref.global (must be at most 2^40 bytes): 4611686018427387904 elements
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target] {
    memref.global @z : memref<4611686018427387904xf32> = dense<0.0>
    gpu.func @f(%p: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %g = memref.get_global @z : memref<4611686018427387904xf32>
      %v = memref.load %g[%t] : memref<4611686018427387904xf32>
      memref.store %v, %p[%t] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// An op of host code in a kernel, or in a function a kernel calls, is an error for the target, not a crash.
// CHECK: errors.mlir:[[# @LINE + 4]]:7: error: Invalid gpu.wait for #nvvm.target<chip = "sm_90"> (must be in host code: it calls the mgpu runtime, which device code has not)
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">, #cpu.target] {
    func.func @helper() {
      gpu.wait
      return
    }
    gpu.func @f() kernel {
      func.call @helper() : () -> ()
      gpu.return
    }
  }
}

// -----

// CHECK: errors.mlir:[[# @LINE + 4]]:12: error: Invalid gpu.alloc for #cpu.target (must be in host code: it calls the mgpu runtime, which device code has not)
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target] {
    gpu.func @f() kernel {
      %m = gpu.alloc () : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// A reinterpret_cast starts from its source's base, which a bare pointer gives only where the source's offset is
// known.
// CHECK: errors.mlir:[[# @LINE + 5]]:12: error: Invalid memref.reinterpret_cast in a kernel (must view a memref whose offset is static, to find its base from a bare pointer): memref<16xf32, strided<[1], offset: ?>>
module attributes {gpu.container_module} {
  gpu.module @k [#nvvm.target<chip = "sm_90">] {
    gpu.func @f(%a: memref<256xf32>, %i: index) kernel {
      %s = memref.subview %a[%i] [16] [1] : memref<256xf32> to memref<16xf32, strided<[1], offset: ?>>
      %v = memref.reinterpret_cast %s to offset: [0], sizes: [4], strides: [1] : memref<16xf32, strided<[1], offset: ?>> to memref<4xf32>
      gpu.return
    }
  }
}
