// RUN: gpu-translate --split-input-file --emit=mlir --outline-kernels %s | FileCheck %s
// RUN: gpu-translate --split-input-file --emit=mlir --outline-kernels --targets=nvvm:sm_90,rocdl:gfx90a,cpu %s | FileCheck %s --check-prefix=TARGETS
// RUN: gpu-translate --split-input-file --emit=mlir --outline-kernels --targets=nvvm:sm_90 %s | mlir-opt-22 --split-input-file > /dev/null
// RUN: gpu-translate --split-input-file --emit=mlir --compile-kernels %s | FileCheck %s --check-prefix=COMPILED
// RUN: gpu-translate --split-input-file --emit=mlir --outline-kernels %s | sed 's/ \[#cpu.target\]//' | mlir-opt-22 --split-input-file > %t.ours
// RUN: mlir-opt-22 --split-input-file %s -gpu-launch-sink-index-computations -gpu-kernel-outlining > %t.upstream
// RUN: diff %t.ours %t.upstream
// REQUIRES: mlir-opt-22

// gpu.launch outlined as upstream's gpu-launch-sink-index-computations and gpu-kernel-outlining do
// together: the body becomes kernel @F_kernel of a gpu.module @F_kernel (then @F_kernel_0, ... for the
// module of the next launch; the kernel keeps its name); constants, memref.dim, arith.select and
// arith.cmpi from above are copied in after the indices, what else the body uses from above becomes an
// argument in order of first use; the block and thread indices and sizes come from gpu.block_id,
// gpu.thread_id, gpu.grid_dim and gpu.block_dim in the entry block, which continues with the body's
// first block; constant sizes become known_block_size and known_grid_size; attributions become the
// kernel's; the launch becomes a gpu.launch_func with the same sizes, dependencies and token. The
// kernels are for the CPU unless --targets names others (then the module picks its object at run time).
// Printed by mlir-opt-22, our outlining of every case here is the text of upstream's, but for the targets.

// CHECK-LABEL: func.func @two(
// CHECK-SAME: %[[A:[^:]*]]: f32, %[[X:[^:]*]]: memref<16xf32>, %[[N:[^:]*]]: index)
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: gpu.launch_func @two_kernel::@two_kernel blocks in (%[[N]], %[[C1]], %[[C1]]) threads in (%[[C1]], %[[C1]], %[[C1]]) args(%[[X]] : memref<16xf32>, %[[A]] : f32)
// CHECK-NEXT: gpu.launch_func @two_kernel_0::@two_kernel blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[N]], %[[C1]], %[[C1]]) args(%[[X]] : memref<16xf32>)
// CHECK: gpu.module @two_kernel [#cpu.target] {
// CHECK-NEXT: gpu.func @two_kernel(%[[KX:.*]]: memref<16xf32>, %[[KA:.*]]: f32) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
// CHECK-NEXT: %[[BX:.*]] = gpu.block_id x
// CHECK: gpu.block_dim z
// CHECK-NEXT: %[[V:.*]] = memref.load %[[KX]][%[[BX]]]
// CHECK-NEXT: arith.mulf %[[V]], %[[KA]] : f32
// CHECK: gpu.return
// CHECK: gpu.module @two_kernel_0 [#cpu.target] {
// CHECK-NEXT: gpu.func @two_kernel(%{{.*}}: memref<16xf32>) kernel attributes {known_grid_size = array<i32: 1, 1, 1>} {
// CHECK: gpu.block_dim z
// CHECK-NEXT: arith.constant 2.000000e+00 : f32
// CHECK-NOT: cf.br

// The second kernel's two blocks, with a barrier, compile for the CPU (each block branches straight to
// the next).
// COMPILED: gpu.binary @two_kernel [#gpu.object<#cpu.target
// COMPILED: gpu.binary @more_kernel [#gpu.object<#cpu.target

// TARGETS: gpu.module @two_kernel <#gpu.runtime_select> [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx90a">, #cpu.target]
module attributes {gpu.container_module} {
  func.func @two(%a: f32, %x: memref<16xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %two = arith.constant 2.0 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %v = memref.load %x[%bx] : memref<16xf32>
      %r = arith.mulf %v, %a : f32
      memref.store %r, %x[%bx] : memref<16xf32>
      gpu.terminator
    }
    gpu.launch blocks(%bx2, %by2, %bz2) in (%gx2 = %c1, %gy2 = %c1, %gz2 = %c1) threads(%tx2, %ty2, %tz2) in (%sx2 = %n, %sy2 = %c1, %sz2 = %c1) {
      %v2 = memref.load %x[%tx2] : memref<16xf32>
      %r2 = arith.mulf %v2, %two : f32
      memref.store %r2, %x[%tx2] : memref<16xf32>
      gpu.terminator
    }
    return
  }
}

// -----

// An async launch with attributions and a body of two blocks; memref.dim, arith.cmpi and arith.select
// are copied in with the constants they need, arith.addi is not (its result is an argument).
// CHECK-LABEL: func.func @more(
// CHECK-SAME: %[[X:[^:]*]]: memref<64xf32>, %[[N:[^:]*]]: index)
// CHECK: %[[SUM:.*]] = arith.addi %[[N]], %[[N]] : index
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK-NEXT: %[[T:.*]] = gpu.launch_func async [%[[T0]]] @more_kernel::@more_kernel blocks in ({{.*}}) threads in ({{.*}}) args(%[[X]] : memref<64xf32>, %[[N]] : index, %[[SUM]] : index)
// CHECK-NEXT: gpu.wait [%[[T]]]
// CHECK: gpu.func @more_kernel(%[[KX:.*]]: memref<64xf32>, %[[KN:.*]]: index, %[[KS:.*]]: index) workgroup(%[[W:.*]] : memref<32xf32, #gpu.address_space<workgroup>>) private(%[[P:.*]] : memref<2xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>, known_grid_size = array<i32: 2, 1, 1>} {
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: gpu.block_dim z
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[D:.*]] = memref.dim %[[KX]], %[[C0]] : memref<64xf32>
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[KN]], %[[D]] : index
// CHECK-NEXT: %[[M:.*]] = arith.select %[[LT]], %[[KN]], %[[D]] : index
// CHECK-NEXT: arith.addi %[[M]], %[[KS]] : index
// CHECK: memref.store %{{.*}}, %[[W]][%[[TX]]]
// CHECK: memref.store %{{.*}}, %[[P]][%[[C0]]]
// CHECK: cf.br ^bb1
// CHECK: ^bb1:
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: gpu.return
module attributes {gpu.container_module} {
  func.func @more(%x: memref<64xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %d = memref.dim %x, %c0 : memref<64xf32>
    %lt = arith.cmpi slt, %n, %d : index
    %m = arith.select %lt, %n, %d : index
    %sum = arith.addi %n, %n : index
    %t0 = gpu.wait async
    %t = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>) private(%p : memref<2xf32, #gpu.address_space<private>>) {
      %i = arith.addi %m, %sum : index
      %j = arith.subi %i, %n : index
      %v = memref.load %x[%j] : memref<64xf32>
      memref.store %v, %w[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      memref.store %v, %p[%c0] : memref<2xf32, #gpu.address_space<private>>
      cf.br ^next
    ^next:
      gpu.barrier
      gpu.terminator
    }
    gpu.wait [%t]
    return
  }
}

// -----

// Two launches in sibling regions may use the same names, as upstream reads them; the module names come
// from one counter for the whole module, past a function that already has the name. Values from an
// enclosing scf.for come in after those of the ops they are nested in (upstream walks nested ops first).
// CHECK-LABEL: func.func @g(
// CHECK: gpu.launch_func @g_kernel_0::@g_kernel
// CHECK: gpu.launch_func @g_kernel_1::@g_kernel
// CHECK: gpu.module @g_kernel_0
// CHECK: gpu.module @g_kernel_1
module attributes {gpu.container_module} {
  func.func @g_kernel() {
    return
  }
  func.func @g(%x: memref<8xf32>, %v: f32, %n: index, %flag: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.if %flag {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
        scf.for %i = %c0 to %n step %c1 {
          memref.store %v, %x[%i] : memref<8xf32>
        }
        gpu.terminator
      }
    } else {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
        memref.store %v, %x[%tx] : memref<8xf32>
        gpu.terminator
      }
    }
    return
  }
}

// -----

// The functions a kernel calls, and those they call, are copied into its module.
// CHECK: gpu.module @c_kernel
// CHECK-DAG: func.func @twice(
// CHECK-DAG: func.func @plus(
module attributes {gpu.container_module} {
  func.func @plus(%a: f32, %b: f32) -> f32 {
    %s = arith.addf %a, %b : f32
    return %s : f32
  }
  func.func @twice(%a: f32) -> f32 {
    %s = func.call @plus(%a, %a) : (f32, f32) -> f32
    return %s : f32
  }
  func.func @c(%x: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
      %v = memref.load %x[%tx] : memref<8xf32>
      %w = func.call @twice(%v) : (f32) -> f32
      memref.store %w, %x[%tx] : memref<8xf32>
      gpu.terminator
    }
    return
  }
}

// -----

// module(@m) and function(@f) name the outlined kernel's module and kernel.
// CHECK: gpu.launch_func @mm::@ff
// CHECK: gpu.module @mm
// CHECK-NEXT: gpu.func @ff() workgroup
module attributes {gpu.container_module} {
  func.func @named() {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) module(@mm) function(@ff) workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>) {
      gpu.terminator
    }
    return
  }
}

// -----

// Every symbol the kernel uses is copied into its module, and what those use, in upstream's order: each
// copy is appended, and the copies are searched in turn from the last one made (@f and @g, then what @g
// uses, then what @f uses). The host keeps its own.
// CHECK-LABEL: func.func @symbols(
// CHECK: gpu.module @symbols_kernel
// CHECK-NEXT: gpu.func @symbols_kernel(
// CHECK: func.func @f(
// CHECK: func.func @g(
// CHECK: llvm.mlir.global internal constant @scale(3.000000e+00 : f32)
// CHECK: func.func @square(
// COMPILED: llvm.mlir.global internal constant @scale(3.000000e+00 : f32)
// COMPILED: gpu.binary @symbols_kernel [#gpu.object<#cpu.target
module attributes {gpu.container_module} {
  llvm.mlir.global internal constant @scale(3.0 : f32) : f32
  func.func @square(%x: f32) -> f32 {
    %r = arith.mulf %x, %x : f32
    return %r : f32
  }
  func.func @f(%x: f32) -> f32 {
    %r = func.call @square(%x) : (f32) -> f32
    return %r : f32
  }
  func.func @g(%x: f32) -> f32 {
    %p = llvm.mlir.addressof @scale : !llvm.ptr
    %s = llvm.load %p : !llvm.ptr -> f32
    %r = arith.mulf %x, %s : f32
    return %r : f32
  }
  func.func @symbols(%out: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %i = arith.index_cast %tx : index to i32
      %x = arith.sitofp %i : i32 to f32
      %a = func.call @f(%x) : (f32) -> f32
      %b = func.call @g(%a) : (f32) -> f32
      memref.store %b, %out[%tx] : memref<64xf32>
      gpu.terminator
    }
    return
  }
}
