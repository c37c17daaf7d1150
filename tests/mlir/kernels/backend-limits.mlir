// RUN: rm -f %t.o
// RUN: not gpu-translate --split-input-file --emit=obj %s -o %t.o 2>&1 | FileCheck %s
// RUN: not ls %t.o
// RUN: not gpu-translate --emit=obj --mattr=-64bit-mode %S/../../../examples/kernels/axpy.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=HOST

// Input that LLVM's back ends cannot take, and that would end the process inside LLVM (or, for a large
// array by value on AMD, run for minutes), is a located error that names the target, before LLVM runs; so
// is an op in a gpu.module that is not a function (it was an internal error); no output file is left.

// CHECK: backend-limits.mlir:[[# @LINE + 3]]:5: error: Invalid symbol name for #nvvm.target<chip = "sm_90"> (must be a PTX identifier: letters, digits, _ and $, not starting with a digit): @k-1
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    gpu.func @"k-1"() kernel {
      gpu.return
    }
  }
}

// -----

// CHECK: backend-limits.mlir:[[# @LINE + 3]]:5: error: Invalid parameter type for #nvvm.target<chip = "sm_90"> (must be an integer of at most 64 bits, or i128): i65
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    gpu.func @k(%x: i65, %out: memref<1xi65>) kernel {
      %c0 = arith.constant 0 : index
      memref.store %x, %out[%c0] : memref<1xi65>
      gpu.return
    }
  }
}

// -----

// CHECK: backend-limits.mlir:[[# @LINE + 4]]:12: error: Invalid arith.sitofp for #nvvm.target<chip = "sm_90"> (must convert an integer of at most 64 bits): i128
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    gpu.func @k(%x: i128, %out: memref<1xf32>) kernel {
      %f = arith.sitofp %x : i128 to f32
      %c0 = arith.constant 0 : index
      memref.store %f, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}

// -----

// CHECK: backend-limits.mlir:[[# @LINE + 4]]:12: error: Invalid arith.fptoui for #nvvm.target<chip = "sm_90"> (must convert an integer of at most 64 bits): i96
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    gpu.func @k(%x: f64, %out: memref<1xi96>) kernel {
      %i = arith.fptoui %x : f64 to i96
      %c0 = arith.constant 0 : index
      memref.store %i, %out[%c0] : memref<1xi96>
      gpu.return
    }
  }
}

// -----

// CHECK: backend-limits.mlir:[[# @LINE + 6]]:17: error: Invalid gpu.shuffle for #rocdl.target<chip = "gfx600"> (must be compiled for GFX8 or later: lanes exchange values through ds_bpermute, which earlier chips lack)
module attributes {gpu.container_module} {
  gpu.module @m [#rocdl.target<chip = "gfx600">] {
    gpu.func @k(%x: f32, %out: memref<1xf32>) kernel {
      %c1 = arith.constant 1 : i32
      %w = arith.constant 64 : i32
      %r, %ok = gpu.shuffle xor %x, %c1, %w : f32
      %c0 = arith.constant 0 : index
      memref.store %r, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}

// -----

// CHECK: backend-limits.mlir:[[# @LINE + 4]]:12: error: Invalid gpu.subgroup_reduce for #rocdl.target<chip = "gfx700"> (must be compiled for GFX8 or later: lanes exchange values through ds_bpermute, which earlier chips lack)
module attributes {gpu.container_module} {
  gpu.module @m [#rocdl.target<chip = "gfx700">] {
    gpu.func @k(%x: f32, %out: memref<1xf32>) kernel {
      %r = gpu.subgroup_reduce add %x : (f32) -> f32
      %c0 = arith.constant 0 : index
      memref.store %r, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}

// -----

// CHECK: backend-limits.mlir:[[# @LINE + 3]]:5: error: Invalid kernel parameters for #rocdl.target<chip = "gfx90a"> (must be at most 32764 bytes): 400000 bytes
module attributes {gpu.container_module} {
  gpu.module @m [#rocdl.target<chip = "gfx90a">] {
    llvm.func @k(%a: !llvm.array<100000 x f32>) attributes {rocdl.kernel} {
      llvm.return
    }
  }
}

// -----

// CHECK: backend-limits.mlir:[[# @LINE + 2]]:3: error: Invalid CPU features (must keep the 64-bit mode of x86_64-{{.*}}): -64bit-mode
module attributes {gpu.container_module} {
  gpu.module @m [#cpu.target<features = "-64bit-mode">] {
    gpu.func @k(%x: f32, %out: memref<4xf32>) kernel {
      %i = gpu.thread_id x
      memref.store %x, %out[%i] : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// CHECK: backend-limits.mlir:[[# @LINE + 3]]:5: error: Invalid symbol name for #nvvm.target<chip = "sm_90"> (must be a PTX identifier: letters, digits, _ and $, not starting with a digit): @g-1
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">] {
    llvm.mlir.global external @"g-1"(0 : i32) {addr_space = 1 : i32} : i32
    llvm.func @intrinsic_declarations_keep_their_names() -> i32 attributes {nvvm.kernel} {
      %a = llvm.mlir.addressof @"g-1" : !llvm.ptr<1>
      %v = llvm.load %a : !llvm.ptr<1> -> i32
      llvm.return %v : i32
    }
  }
}

// -----

// CHECK: backend-limits.mlir:[[# @LINE + 3]]:10: error: Invalid op in a gpu.module for #rocdl.target<chip = "gfx90a"> (must be a function): arith.constant
module attributes {gpu.container_module} {
  gpu.module @m [#rocdl.target<chip = "gfx90a">] {
    %c = arith.constant 1 : i32
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// HOST: error: Invalid CPU features (must keep the 64-bit mode of x86_64-{{.*}}): -64bit-mode

// -----

// The driver's limit on a kernel's parameters is 32,764 bytes from sm_70 on (a chip with a suffix too) ...
// CHECK: backend-limits.mlir:[[# @LINE + 3]]:5: error: Invalid kernel parameters for #nvvm.target<chip = "sm_90a"> (must be at most 32764 bytes, the CUDA driver's limit): 36000 bytes
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90a">] {
    llvm.func @k(%a: !llvm.array<9000 x f32>) attributes {nvvm.kernel} {
      llvm.return
    }
  }
}

// -----

// ... and 4,096 bytes before it.
// CHECK: backend-limits.mlir:[[# @LINE + 3]]:5: error: Invalid kernel parameters for #nvvm.target<chip = "sm_60"> (must be at most 4096 bytes, the CUDA driver's limit): 4400 bytes
module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_60">] {
    llvm.func @k(%a: !llvm.array<1100 x f32>) attributes {nvvm.kernel} {
      llvm.return
    }
  }
}
