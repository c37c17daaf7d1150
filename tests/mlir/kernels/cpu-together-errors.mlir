// RUN: rm -f %t.o
// RUN: not gpu-translate --split-input-file --emit=obj %s -o %t.o 2>&1 | FileCheck %s
// RUN: not ls %t.o

// On the CPU, the threads of a block run in loops between barriers and shuffles, cut in the kernel's body
// (functions that hold a barrier or shuffle are inlined into it), with only scf.for, scf.if and scf.while
// around them; what cannot be cut so is a located error.

// A function with a barrier is inlined into the kernels that call it: it must have one block.
// CHECK: cpu-together-errors.mlir:[[# @LINE + 12]]:7: error: Invalid call for #cpu.target (a function with a barrier or shuffle is inlined, so it must have one block and no attributions): @helper
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target] {
    func.func @helper(%c: i1) {
      cf.cond_br %c, ^a, ^b
    ^a:
      gpu.barrier
      return
    ^b:
      return
    }
    gpu.func @f(%c: i1) kernel {
      func.call @helper(%c) : (i1) -> ()
      gpu.return
    }
  }
}

// -----

// CHECK: cpu-together-errors.mlir:[[# @LINE + 11]]:12: error: Invalid call for #cpu.target (must not recurse into a function with a barrier or shuffle, which is inlined): @helper
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target] {
    func.func @helper(%v: f32) -> f32 {
      %o = arith.constant 1 : i32
      %w = arith.constant 32 : i32
      %s, %ok = gpu.shuffle xor %v, %o, %w : f32
      %r = func.call @helper(%s) : (f32) -> f32
      return %r : f32
    }
    gpu.func @f(%v: f32) kernel {
      %r = func.call @helper(%v) : (f32) -> f32
      gpu.return
    }
  }
}

// -----

// CHECK: cpu-together-errors.mlir:[[# @LINE + 3]]:5: error: Invalid kernel for #cpu.target (must have one block, or blocks that each branch straight to the next, when it has barriers, shuffles or workgroup memory: the CPU runs its threads in loops between them)
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target] {
    gpu.func @f(%c: i1) kernel {
      cf.cond_br %c, ^a, ^b
    ^a:
      gpu.barrier
      gpu.return
    ^b:
      gpu.return
    }
  }
}

// -----

// Workgroup memory as a global (upstream's lowered form) would be one for all the blocks that run in
// parallel on the CPU.
// CHECK: cpu-together-errors.mlir:[[# @LINE + 3]]:5: error: Invalid llvm.mlir.global in workgroup memory (addr_space = 3) for #cpu.target (must be a kernel's workgroup attribution, which is each block's own)
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target] {
    llvm.mlir.global internal @smem() {addr_space = 3 : i32} : !llvm.array<256 x f32>
    gpu.func @f() kernel {
      gpu.barrier
      gpu.return
    }
  }
}

// -----

// A function that calls itself twice: the recursion is found before anything is inlined.
// CHECK: cpu-together-errors.mlir:[[# @LINE + 21]]:12: error: Invalid call for #cpu.target (must not recurse into a function with a barrier or shuffle, which is inlined): @rec
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target] {
    func.func @rec(%v: f32, %n: index) -> f32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %more = arith.cmpi ugt, %n, %c0 : index
      %r = scf.if %more -> (f32) {
        %m = arith.subi %n, %c1 : index
        %a = func.call @rec(%v, %m) : (f32, index) -> f32
        %b = func.call @rec(%a, %m) : (f32, index) -> f32
        scf.yield %b : f32
      } else {
        %o = arith.constant 1 : i32
        %w = arith.constant 32 : i32
        %s, %ok = gpu.shuffle xor %v, %o, %w : f32
        scf.yield %s : f32
      }
      return %r : f32
    }
    gpu.func @kern(%v: f32, %n: index) kernel {
      %r = func.call @rec(%v, %n) : (f32, index) -> f32
      gpu.return
    }
  }
}

// -----

// Workgroup memory is on the stack of the worker that runs the block (8 MiB): more than 1 MiB is
// refused.
// CHECK: cpu-together-errors.mlir:[[# @LINE + 3]]:5: error: Invalid memref for #cpu.target (must be at most 1048576 bytes: it is on a worker thread's stack): memref<1073741824xf32, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target] {
    gpu.func @f(%out: memref<4xf32>) workgroup(%w: memref<1073741824xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %w[%c0] : memref<1073741824xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      memref.store %v, %out[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
