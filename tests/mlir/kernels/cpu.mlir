// RUN: sed 's/\[#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80">, #rocdl.target<chip = "gfx90a">, /[/' %S/../../../examples/kernels/axpy.mlir > %t.axpy.mlir
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly --kernel-bare-ptr-calling-convention %t.axpy.mlir | gpu-object cpu | FileCheck %s
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %t.axpy.mlir | gpu-object cpu | FileCheck %s --check-prefix=DESC
// RUN: gpu-translate --emit=mlir --compile-kernels %t.axpy.mlir | gpu-object cpu > %t.so
// RUN: nm -D --defined-only %t.so | FileCheck %s --check-prefix=SYMBOLS
// RUN: sed 's/ i32) kernel {/ i32) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {/' %t.axpy.mlir > %t.known.mlir
// RUN: FileCheck %s --check-prefix=KNOWNSRC < %t.known.mlir
// RUN: gpu-translate --emit=mlir --compile-kernels %t.known.mlir | gpu-object cpu > %t.known.so
// RUN: nm -D --defined-only %t.known.so | FileCheck %s --check-prefix=KNOWN
// RUN: sed 's/\[#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80">, #rocdl.target<chip = "gfx90a">, /[/' %S/../../../examples/kernels/matmul.mlir > %t.matmul.mlir
// RUN: gpu-translate --emit=mlir --compile-kernels %t.matmul.mlir | gpu-object cpu > %t.matmul.so
// RUN: nm --defined-only %t.matmul.so | FileCheck %s --check-prefix=MATMUL
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %t.matmul.mlir | gpu-object cpu | FileCheck %s --check-prefix=MATMULASM
// RUN: sed 's/\[#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80">, #rocdl.target<chip = "gfx90a">, /[/' %S/../../../examples/kernels/reduce.mlir > %t.reduce.mlir
// RUN: gpu-translate --emit=mlir --compile-kernels %t.reduce.mlir | gpu-object cpu > %t.reduce.so
// RUN: nm --defined-only %t.reduce.so | FileCheck %s --check-prefix=REDUCE

// #cpu.target compiles a kernel through the host's back end into a shared object of the CPU kernel ABI
// (mgpu.h), whose entry point runs a whole block (the marker symbol "axpy.mgpu_block" says so): it reads
// each argument from params[i], copies the grid, and loops over the block's threads, calling the body
// (internal, inlined) with the thread's index in the copy. The block index and size come from the grid
// (blockIdx at byte 48, blockDim at 24). A kernel whose threads work together (matmul's barriers and
// workgroup memory, reduce's shuffles) is one function with loops over the threads between its barriers
// and shuffles, and no body function; tests/e2e/together checks what such kernels compute.

// CHECK: .globl axpy
// CHECK: axpy:
// CHECK-DAG: 24(%rsi)
// CHECK-DAG: 48(%rsi)
// CHECK-NOT: call
// CHECK: mulss
// CHECK: .globl axpy.mgpu_block

// The sizes of its parameters (a: f32, x and y: memrefs, bare pointers, n: i32) after their count, so that the
// runtime can copy a launch's arguments and run it after the launch has returned.
// CHECK: axpy.mgpu_params:
// CHECK-NEXT: .quad 4
// CHECK-NEXT: .quad 4
// CHECK-NEXT: .quad 8
// CHECK-NEXT: .quad 8
// CHECK-NEXT: .quad 4
// CHECK-NEXT: .size axpy.mgpu_params, 40
// With upstream's default convention each memref is its descriptor's five fields.
// DESC: axpy.mgpu_params:
// DESC-NEXT: .quad 12
// DESC-NEXT: .quad 4
// DESC-COUNT-10: .quad 8
// DESC-NEXT: .quad 4
// DESC-NEXT: .size axpy.mgpu_params, 104

// SYMBOLS: T axpy
// SYMBOLS-NEXT: R axpy.mgpu_block
// SYMBOLS-NEXT: R axpy.mgpu_params
// SYMBOLS-NOT: axpy.body

// A kernel whose threads do not work together loops over the launch's block size even with a
// known_block_size, so it exports no size for the runtime to hold launches to.
// KNOWNSRC: i32) kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
// KNOWN: T axpy
// KNOWN-NEXT: R axpy.mgpu_block
// KNOWN-NOT: mgpu_block_size

// Its known_block_size, which its loops run whatever the launch says, is exported for the runtime to
// check launches against; reduce has none.
// MATMUL: T matmul
// MATMUL-NEXT: R matmul.mgpu_block
// MATMUL-NEXT: R matmul.mgpu_block_size
// MATMUL-NEXT: R matmul.mgpu_params
// MATMUL-NOT: matmul.body

// The tile loop's sum goes straight into its per-thread array, the one its next iteration reads: no copy of
// the block's sums after each tile (a 1 KiB memcpy that made each tile wait for the whole block's).
// MATMULASM: matmul:
// MATMULASM-NOT: memcpy
// MATMULASM: .size matmul

// REDUCE: T reduce
// REDUCE-NEXT: R reduce.mgpu_block
// REDUCE-NOT: reduce.body
// REDUCE-NOT: mgpu_block_size
