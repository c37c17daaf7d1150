// An atomic on a thread's own memory (memref.alloca, the private address space) is a load and a store: no
// other thread sees that memory. Before, it was an atomic (four atom. in this kernel's PTX), which the NVPTX
// back end cannot select once it has moved the memory to local memory (the kernel fuzzer found a
// compare-and-swap that ended llc: "Cannot select AtomicCmpSwap ... addrspace 5"). Every target compiles it,
// and the CPU computes what the atomics say.
// RUN: gpu-translate --save-temps=%t.temps --emit=exe --entry-point=main %s -o %t.exe
// RUN: FileCheck %s --check-prefix=PTX --input-file %t.temps/private-atomics.m.sm_90.ptx
// PTX: .visible .entry k(
// PTX-NOT: atom.
// PTX: ret;
// RUN: env MGPU_BACKEND=cpu %t.exe | FileCheck %s --check-prefix=OUT --strict-whitespace --match-full-lines
// s: 1, +1 (old 1), max 1 (old 2): 2; out = 2 + 1. g: 2.5, maxnum 2.5, * 2.5 (old 2.5): 6.25; f = 6.25 + 2.5.
// OUT:3
// OUT-NEXT:8.75
module attributes {gpu.container_module} {
  gpu.module @m <#gpu.runtime_select> [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx90a">, #cpu.target] {
    gpu.func @k(%out: memref<?xi32>, %f: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      %two = arith.constant 2.5 : f32
      %s = memref.alloca() : memref<2xi32>
      %g = memref.alloca() : memref<2xf32>
      memref.store %one, %s[%c0] : memref<2xi32>
      memref.store %two, %g[%c0] : memref<2xf32>
      %a = memref.atomic_rmw addi %one, %s[%c0] : (i32, memref<2xi32>) -> i32
      %b = memref.atomic_rmw maxs %one, %s[%c0] : (i32, memref<2xi32>) -> i32
      %c = memref.atomic_rmw maxnumf %two, %g[%c0] : (f32, memref<2xf32>) -> f32
      %d = memref.atomic_rmw mulf %two, %g[%c0] : (f32, memref<2xf32>) -> f32
      %v = memref.load %s[%c0] : memref<2xi32>
      %w = memref.load %g[%c0] : memref<2xf32>
      %x = arith.addi %v, %a : i32
      memref.store %x, %out[%c0] : memref<?xi32>
      %y = arith.addf %w, %d : f32
      memref.store %y, %f[%c0] : memref<?xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %out = gpu.alloc host_shared (%c1) : memref<?xi32>
    %f = gpu.alloc host_shared (%c1) : memref<?xf32>
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<?xi32>, %f : memref<?xf32>)
    %r = memref.load %out[%c0] : memref<?xi32>
    %q = memref.load %f[%c0] : memref<?xf32>
    vector.print %r : i32
    vector.print %q : f32
    return
  }
}
