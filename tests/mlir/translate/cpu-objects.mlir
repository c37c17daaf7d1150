// An object embedded into a #cpu.target slot must be what the CPU backend can load: an ELF shared object for
// the machine the program runs on. Anything else is a located error naming the object when it is embedded
// (the runtime refuses it again when it loads).
// RUN: not gpu-translate --embed axpy=%s %S/../../../examples/own-objects/axpy/axpy.mlir -o %t.text.o 2>&1 | FileCheck %s --check-prefix=TEXT
// TEXT: axpy.mlir:4:3: error: Invalid object for #cpu.target (must be an ELF shared object for {{x86_64-pc-linux-gnu|aarch64-unknown-linux-gnu}}, which the CPU backend loads): @file:axpy ({{[0-9]+}} bytes): it is not an ELF file

// A relocatable object (a host object of this machine) is not a shared object.
// RUN: gpu-translate --emit=obj %S/Inputs/cpu-kernel.mlir -o %t.host.o
// RUN: not gpu-translate --embed axpy=%t.host.o %S/../../../examples/own-objects/axpy/axpy.mlir -o %t.rel.o 2>&1 | FileCheck %s --check-prefix=REL
// REL: error: Invalid object for #cpu.target {{.*}}: @file:axpy ({{[0-9]+}} bytes): it is not a shared object (ELF type 1, not 3)

// A CPU object of this machine is taken, but not for a program that runs on another one (the other of x86-64
// and AArch64).
// RUN: gpu-translate --emit=mlir --compile-kernels %S/Inputs/cpu-kernel.mlir | gpu-object cpu > %t.so
// RUN: gpu-translate --embed axpy=%t.so %S/../../../examples/own-objects/axpy/axpy.mlir -o %t.ok.o
// RUN: not gpu-translate --target-triple=$(uname -m | sed 's/^x86_64$/aarch64-linux-gnu/; s/^aarch64$/x86_64-linux-gnu/') --embed axpy=%t.so %S/../../../examples/own-objects/axpy/axpy.mlir -o %t.riscv.o 2>&1 | FileCheck %s --check-prefix=MACHINE
// MACHINE: axpy.mlir:4:3: error: Invalid object for #cpu.target (must be an ELF shared object for {{aarch64-unknown-linux-gnu|x86_64-unknown-linux-gnu}}, which the CPU backend loads): @file:axpy ({{[0-9]+}} bytes): it is for ELF machine {{62, not aarch64 \(183\)|183, not x86_64 \(62\)}}

// Kernels for #cpu.target are compiled and linked for this machine: a program for another one is refused
// at the gpu.module, instead of holding a CPU object that its machine cannot load.
// RUN: not gpu-translate --target-triple=$(uname -m | sed 's/^x86_64$/aarch64-linux-gnu/; s/^aarch64$/x86_64-linux-gnu/') %S/Inputs/cpu-kernel.mlir -o %t.ll 2>&1 | FileCheck %s --check-prefix=TRIPLE
// TRIPLE: cpu-kernel.mlir:2:3: error: Invalid #cpu.target for target triple {{aarch64-unknown-linux-gnu|x86_64-unknown-linux-gnu}} (must compile for the program's machine; its kernels are compiled and linked for {{x86_64-pc-linux-gnu|aarch64-unknown-linux-gnu}}): #cpu.target
// So are kernels outlined from gpu.launch for the CPU.
// RUN: not gpu-translate --target-triple=$(uname -m | sed 's/^x86_64$/aarch64-linux-gnu/; s/^aarch64$/x86_64-linux-gnu/') --targets=cpu --emit=obj %S/../upstream-style/print-scalars.mlir -o %t.other.o 2>&1 | FileCheck %s --check-prefix=OUTLINED
// OUTLINED: print-scalars.mlir:40:3: error: Invalid #cpu.target for target triple
