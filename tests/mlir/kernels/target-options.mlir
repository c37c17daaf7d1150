// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %s > %t.mlir
// RUN: gpu-object --all nvvm < %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: gpu-object --all rocdl < %t.mlir | FileCheck %s --check-prefix=GCN
// RUN: sed 's/abi = "500"/abi = "400"/' %s | not gpu-translate --emit=obj -o %t.o 2>&1 | FileCheck %s --check-prefix=ABI

// What the target attributes ask: NVVM's flags (ftz: denormals flush to zero, the .ftz forms; fast:
// approximate division) against the default (IEEE division and square root); ROCDL's abi, the code-object
// version (default "600", version 6; "500", version 5).

// PTX: .visible .entry plain(
// PTX: div.rn.f32
// PTX: sqrt.rn.f32
// PTX: .visible .entry flags(
// PTX: div.approx.ftz.f32
// PTX: sqrt.rn.ftz.f32

// GCN: .amdhsa_code_object_version 6
// GCN: .amdhsa_code_object_version 5

// ABI: error: Invalid abi of #rocdl.target<chip = "gfx90a", abi = "400"> (must be "500" or "600", code object version 5 or 6): "400"
module attributes {gpu.container_module} {
  gpu.module @a [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx90a">] {
    gpu.func @plain(%p: memref<2xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %a = memref.load %p[%c0] : memref<2xf32>
      %b = memref.load %p[%c1] : memref<2xf32>
      %q = arith.divf %a, %b : f32
      %s = math.sqrt %q : f32
      memref.store %s, %p[%c0] : memref<2xf32>
      gpu.return
    }
  }
  gpu.module @b [#nvvm.target<chip = "sm_90", flags = {ftz, fast}>, #rocdl.target<chip = "gfx90a", abi = "500">] {
    gpu.func @flags(%p: memref<2xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %a = memref.load %p[%c0] : memref<2xf32>
      %b = memref.load %p[%c1] : memref<2xf32>
      %q = arith.divf %a, %b : f32
      %s = math.sqrt %q : f32
      memref.store %s, %p[%c0] : memref<2xf32>
      gpu.return
    }
  }
}
