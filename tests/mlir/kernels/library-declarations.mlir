// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=offload %s | gpu-object cpu | llvm-dis-22 | FileCheck %s

// A function the gpu.module declares comes from the target's library (libm on the CPU, which the shared
// object links), so it takes the C types alone, without the grid that the module's own functions get after
// their arguments; math.tanh's call for its libm function reaches the same declaration.

// CHECK: declare float @tanhf(float)
// CHECK-COUNT-2: call float @tanhf(float %{{[0-9a-z.]+}})
gpu.module @m [#cpu.target] {
  func.func private @tanhf(f32) -> f32
  gpu.func @k(%p: memref<2xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %v = memref.load %p[%c0] : memref<2xf32>
    %e = math.tanh %v : f32
    memref.store %e, %p[%c0] : memref<2xf32>
    %w = memref.load %p[%c1] : memref<2xf32>
    %f = func.call @tanhf(%w) : (f32) -> f32
    memref.store %f, %p[%c1] : memref<2xf32>
    gpu.return
  }
}

// A declaration that no math op needs is taken as the C library's on the CPU too.
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=offload %S/Inputs/cbrtf.mlir | gpu-object cpu | llvm-dis-22 | FileCheck %s --check-prefix=CBRT
// CBRT: declare float @cbrtf(float)
// CBRT: call float @cbrtf(float %{{[0-9a-z.]+}})

// A declaration that neither the C library, libm nor libgcc has here (a typo) is a located error naming it, at
// the declaration: the shared object is linked with nothing left undefined, since loading it would fail.
// RUN: not gpu-translate --emit=mlir --compile-kernels %S/Inputs/declared-helper.mlir -o %t.helper.mlir 2>&1 | FileCheck %s --check-prefix=UNDEF
// UNDEF: declared-helper.mlir:2:3: error: Invalid kernels for #cpu.target (must need only functions that the C library, libm or libgcc define, which the runtime binds when it loads them): @my_typo_helper is defined nowhere
// UNDEF-NEXT: func.func private @my_typo_helper(f32) -> f32
// UNDEF-NOT: cbrtf
