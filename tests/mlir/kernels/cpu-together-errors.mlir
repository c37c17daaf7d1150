// RUN: not gpu-translate --split-input-file --emit=obj %s -o %t.o 2>&1 | FileCheck %s
// RUN: not ls %t.o

// On the CPU, the threads of a block run in loops between barriers and shuffles, so a barrier or shuffle
// must be in a kernel's body with only scf.for and scf.if around it; elsewhere it is a located error.

// CHECK: cpu-together-errors.mlir:[[# @LINE + 4]]:7: error: Invalid gpu.barrier for #cpu.target (must be in a kernel's body, where only scf.for and scf.if may be around it: the CPU runs the threads of a block in loops between barriers and shuffles)
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target] {
    gpu.func @helper() {
      gpu.barrier
      gpu.return
    }
    gpu.func @f() kernel {
      gpu.return
    }
  }
}

// -----

// CHECK: cpu-together-errors.mlir:[[# @LINE + 6]]:17: error: Invalid gpu.shuffle for #cpu.target (must be in a kernel's body, where only scf.for and scf.if may be around it: the CPU runs the threads of a block in loops between barriers and shuffles)
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target] {
    func.func @helper(%v: f32) -> f32 {
      %o = arith.constant 1 : i32
      %w = arith.constant 32 : i32
      %s, %ok = gpu.shuffle xor %v, %o, %w : f32
      return %s : f32
    }
  }
}

// -----

// CHECK: cpu-together-errors.mlir:[[# @LINE + 6]]:12: error: Invalid scf.while around a gpu.barrier or gpu.shuffle for #cpu.target (must be scf.for or scf.if: the CPU runs the threads of a block in loops between barriers and shuffles)
module attributes {gpu.container_module} {
  gpu.module @k [#cpu.target] {
    gpu.func @f(%n: i32) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %r = scf.while (%i = %c0) : (i32) -> i32 {
        %more = arith.cmpi slt, %i, %n : i32
        scf.condition(%more) %i : i32
      } do {
      ^bb0(%j: i32):
        gpu.barrier
        %next = arith.addi %j, %c1 : i32
        scf.yield %next : i32
      }
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
