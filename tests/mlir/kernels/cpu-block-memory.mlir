// What a CPU block keeps in memory is checked: at compile time against the stack of the thread that runs
// the block, at launch against what the kernel was sized for and what the machine has.

// A kernel whose threads work together and that has no known_block_size keeps its per-thread arrays on the
// stack, sized for 1,024 threads: a block of 524,288 is refused with a report (it overflowed the stack:
// SIGSEGV), and the program ends, or goes on with MGPU_ON_ERROR=continue.
// RUN: gpu-translate --emit=exe --entry-point=main %S/Inputs/cpu-unsized-barrier.mlir -o %t.unsized
// RUN: not --crash env MGPU_BACKEND=cpu %t.unsized > %t.unsized.out 2> %t.unsized.err
// RUN: FileCheck %s --check-prefix=SIZED --input-file %t.unsized.out --strict-whitespace --match-full-lines
// RUN: FileCheck %s --check-prefix=UNSIZED --input-file %t.unsized.err
// SIZED:1024
// SIZED-NEXT:1
// SIZED-NEXT:1023
// SIZED-NOT:{{.}}
// UNSIZED: mgpu: cpu: mgpuLaunchKernel failed: kernel 'neighbours' keeps its per-thread memory on the stack, sized for blocks of at most 1024 threads (it has no known_block_size), not 524288 (524288x1x1)
// UNSIZED-NEXT: mgpu: cpu: mgpuLaunchKernel: kernel 'neighbours' of a module of {{[0-9]+}} bytes was not launched: kernel 'neighbours' keeps its per-thread memory on the stack, sized for blocks of at most 1024 threads (it has no known_block_size), not 524288 (524288x1x1); aborting (MGPU_ON_ERROR=continue reports and goes on)
// RUN: env MGPU_BACKEND=cpu MGPU_ON_ERROR=continue %t.unsized > %t.continue.out 2> %t.continue.err
// RUN: FileCheck %s --check-prefix=CONTINUE --input-file %t.continue.out
// RUN: FileCheck %s --check-prefix=REPORTED --input-file %t.continue.err
// CONTINUE: 1023
// CONTINUE-NEXT: 524288
// REPORTED: mgpu: cpu: mgpuLaunchKernel failed: kernel 'neighbours' keeps its per-thread memory on the stack
// REPORTED-NOT: aborting

// Twelve workgroup arrays of 1 MiB pass the check of each array, but not of the block's frame.
// RUN: not gpu-translate --emit=obj %S/Inputs/cpu-workgroup-stack.mlir -o %t.stack.o 2>&1 | FileCheck %s --check-prefix=STACK
// STACK: cpu-workgroup-stack.mlir:4:3: error: Invalid kernel for #cpu.target (must keep at most 4194304 bytes of workgroup and private memory on the stack of the thread that runs a block): it keeps 12582912 bytes there

// 64 KiB of private memory per thread is allocated per block: an allocation that fails (4 GiB under
// ulimit -v) is reported by the block, which does not run, and ends the program, or goes on with
// MGPU_ON_ERROR=continue; 64 GiB for a block of 1,048,576 threads is refused at launch (aligned_alloc
// returned NULL and the block crashed); a block of 256 threads runs.
// RUN: gpu-translate --emit=exe --entry-point=main %S/Inputs/cpu-private-heap.mlir -o %t.heap
// RUN: (ulimit -v 2000000; not --crash env MGPU_BACKEND=cpu MGPU_CPU_THREADS=1 %t.heap > %t.abort.out 2> %t.abort.err)
// RUN: FileCheck %s --check-prefix=ABORT --input-file %t.abort.err
// ABORT: mgpu: cpu: kernel 'scratch': aligned_alloc failed: 65536 threads of 65536 bytes of per-thread memory; the block did not run
// ABORT-NEXT: mgpu: aborting (MGPU_ON_ERROR=continue reports and goes on)
// RUN: (ulimit -v 2000000; env MGPU_BACKEND=cpu MGPU_CPU_THREADS=1 MGPU_ON_ERROR=continue %t.heap > %t.heap.out 2> %t.heap.err)
// RUN: FileCheck %s --check-prefix=HEAP --input-file %t.heap.out --strict-whitespace --match-full-lines
// RUN: FileCheck %s --check-prefix=HEAPERR --input-file %t.heap.err
// HEAP:65536
// HEAP-NEXT:0
// HEAP-NEXT:1048576
// HEAP-NEXT:0
// HEAP-NEXT:256
// HEAP-NEXT:255
// HEAPERR: mgpu: cpu: kernel 'scratch': aligned_alloc failed: 65536 threads of 65536 bytes of per-thread memory; the block did not run
// HEAPERR-NOT: aborting
// HEAPERR: mgpu: cpu: mgpuLaunchKernel failed: kernel 'scratch' needs 65536 bytes of per-thread memory for each of the 1048576 threads of a block, more than this machine's {{[0-9]+}} bytes of memory
