// RUN: sed 's/\[#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80">, #rocdl.target<chip = "gfx90a">\]/[#cpu.target]/' %S/../../../examples/kernels/axpy.mlir > %t.axpy.mlir
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %t.axpy.mlir | gpu-object cpu | FileCheck %s
// RUN: gpu-translate --emit=mlir --compile-kernels %t.axpy.mlir | gpu-object cpu > %t.so
// RUN: nm -D --defined-only %t.so | FileCheck %s --check-prefix=SYMBOLS
// RUN: sed 's/\[#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80">, #rocdl.target<chip = "gfx90a">\]/[#cpu.target]/' %S/../../../examples/kernels/matmul.mlir > %t.matmul.mlir
// RUN: not gpu-translate --emit=obj %t.matmul.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=WORKGROUP
// RUN: sed 's/\[#nvvm.target<chip = "sm_90">, #nvvm.target<chip = "sm_80">, #rocdl.target<chip = "gfx90a">\]/[#cpu.target]/' %S/../../../examples/kernels/reduce.mlir > %t.reduce.mlir
// RUN: not gpu-translate --emit=obj %t.reduce.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=SHUFFLE

// #cpu.target compiles a kernel through the host's back end into a shared object of the CPU kernel ABI
// (mgpu.h), whose entry point runs a whole block (the marker symbol "axpy.mgpu_block" says so): it reads
// each argument from params[i], copies the grid, and loops over the block's threads, calling the body
// (internal, inlined) with the thread's index in the copy. The block index and size come from the grid
// (blockIdx at byte 48, blockDim at 24). What needs the threads of a block at once is a located error.

// CHECK: .globl axpy
// CHECK: axpy:
// CHECK-DAG: 24(%rsi)
// CHECK-DAG: 48(%rsi)
// CHECK-NOT: call
// CHECK: mulss
// CHECK: .globl axpy.mgpu_block

// SYMBOLS: T axpy
// SYMBOLS-NEXT: R axpy.mgpu_block
// SYMBOLS-NOT: axpy.body

// WORKGROUP: matmul.mlir:5:5: error: Invalid workgroup memory for #cpu.target (must run where the threads of a block run together; the CPU kernel ABI runs one thread at a time)
// SHUFFLE: reduce.mlir:[[#]]:{{[0-9]+}}: error: Invalid gpu.shuffle for #cpu.target (must run where the threads of a block run together; the CPU kernel ABI runs one thread at a time)
