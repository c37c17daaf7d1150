// REQUIRES: ptxas
// RUN: gpu-translate --emit=mlir --compile-kernels --gpu-format=assembly %s > %t.mlir
// RUN: gpu-object sm_90 < %t.mlir | FileCheck %s --check-prefix=PTX
// RUN: gpu-object sm_90 < %t.mlir > %t.ptx && ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: gpu-object gfx90a < %t.mlir | FileCheck %s --check-prefix=GCN
// RUN: gpu-translate --emit=mlir %s | gpu-translate --emit=mlir - | FileCheck %s --check-prefix=ROUND
// RUN: gpu-translate --emit=mlir %s | mlir-opt-22 > /dev/null
// RUN: mlir-opt-22 --mlir-print-op-generic %s | gpu-translate --emit=mlir - | FileCheck %s --check-prefix=ROUND
// RUN: sed 's/\[4, 7\] \[1, 2\]/[4, 7] [0, 2]/; s/strided<\[16, 2\], offset: ?>/strided<[0, 2], offset: ?>/g' %s > %t.zero.mlir
// RUN: not gpu-translate --emit=mlir --compile-kernels %t.zero.mlir 2>&1 | FileCheck %s --check-prefix=ZERO

// A view is its source's element 0 moved by the view's offset: a[%i + 1][2 + 2 * 1] is 64 %i + 80 bytes
// from a, row 3's element 1 is 196 bytes, the expanded out[1][1] 68; a cast, an expansion and a collapse
// move nothing. tests/e2e/outline/views.mlir checks what the CPU computes.

// PTX: .visible .entry views(
// PTX: shl.b64 [[I64:%rd[0-9]+]], %rd{{[0-9]+}}, 6;
// PTX: add.s64 [[P:%rd[0-9]+]], %rd{{[0-9]+}}, [[I64]];
// PTX: ld.global.f32 %f{{[0-9]+}}, [[[P]]+80];
// PTX: ld.global.f32 %f{{[0-9]+}}, [%rd{{[0-9]+}}+196];
// PTX: st.global.f32 [%rd{{[0-9]+}}+68],
// PTX: st.global.f32 [%rd{{[0-9]+}}],
// PTX: ret;
// PTX: .visible .entry rows(
// PTX: shl.b64 [[R64:%rd[0-9]+]], %rd{{[0-9]+}}, 6;
// PTX: add.s64 [[Q:%rd[0-9]+]], %rd{{[0-9]+}}, [[R64]];
// PTX: ld.global.f32 %f{{[0-9]+}}, [[[Q]]+68];
// PTX: ret;
// PTX: .visible .entry recast(
// PTX: ld.global.f32 %f{{[0-9]+}}, [%rd{{[0-9]+}}+148];
// PTX: ret;

// A stride of 0 verifies, as upstream's does, but a kernel computes addresses that do not wrap or step back.
// ZERO: zero.mlir:[[@LINE+22]]:12: error: Invalid memref.subview in a kernel (must have positive strides or strides given as values): 0

// GCN: views:
// GCN: s_lshl_b64 s[{{[0-9]+}}:{{[0-9]+}}], s[{{[0-9]+}}:{{[0-9]+}}], 6
// GCN: s_load_dword s{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0x50
// GCN: s_load_dword s{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0xc4
// GCN: global_store_dword v{{[0-9]+}}, v{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}] offset:68
// GCN: s_endpgm

// ROUND: memref.subview %{{.*}}[%{{.*}}, 2] [4, 7] [1, 2] : memref<16x16xf32> to memref<4x7xf32, strided<[16, 2], offset: ?>>
// ROUND: memref.subview %{{.*}}[3, 0] [1, 16] [1, 1] : memref<16x16xf32> to memref<16xf32, strided<[1], offset: 48>>
// ROUND: memref.cast %{{.*}} : memref<256xf32> to memref<?xf32>
// ROUND: memref.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [16, 16] : memref<256xf32> into memref<16x16xf32>
// ROUND: memref.collapse_shape %{{.*}} {{\[\[}}0, 1]] : memref<16x16xf32> into memref<256xf32>
// ROUND: memref.collapse_shape %{{.*}} [] : memref<1x1xf32> into memref<f32>
// ROUND: memref.expand_shape %{{.*}} [] output_shape [1, 1] : memref<f32> into memref<1x1xf32>

module attributes {gpu.container_module} {
  gpu.module @m [#nvvm.target<chip = "sm_90">, #rocdl.target<chip = "gfx90a">] {
    gpu.func @views(%a: memref<16x16xf32>, %i: index, %out: memref<256xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %s = memref.subview %a[%i, 2] [4, 7] [1, 2] : memref<16x16xf32> to memref<4x7xf32, strided<[16, 2], offset: ?>>
      %v = memref.load %s[%c1, %c1] : memref<4x7xf32, strided<[16, 2], offset: ?>>
      %row = memref.subview %a[3, 0] [1, 16] [1, 1] : memref<16x16xf32> to memref<16xf32, strided<[1], offset: 48>>
      %w = memref.load %row[%c1] : memref<16xf32, strided<[1], offset: 48>>
      %c = memref.cast %out : memref<256xf32> to memref<?xf32>
      %e = memref.expand_shape %out [[0, 1]] output_shape [16, 16] : memref<256xf32> into memref<16x16xf32>
      %f = memref.collapse_shape %e [[0, 1]] : memref<16x16xf32> into memref<256xf32>
      %sum = arith.addf %v, %w : f32
      memref.store %sum, %e[%c1, %c1] : memref<16x16xf32>
      memref.store %sum, %c[%c0] : memref<?xf32>
      memref.store %sum, %f[%i] : memref<256xf32>
      gpu.return
    }
    // Rows %i to %i + 3 of a, flat: a strided collapse of a subview. Its element 17 is a[%i + 1][1].
    gpu.func @rows(%a: memref<16x16xf32>, %i: index, %out: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c17 = arith.constant 17 : index
      %s = memref.subview %a[%i, 0] [4, 16] [1, 1] : memref<16x16xf32> to memref<4x16xf32, strided<[16, 1], offset: ?>>
      %flat = memref.collapse_shape %s [[0, 1]] : memref<4x16xf32, strided<[16, 1], offset: ?>> into memref<64xf32, strided<[1], offset: ?>>
      %v = memref.load %flat[%c17] : memref<64xf32, strided<[1], offset: ?>>
      memref.store %v, %out[%c0] : memref<1xf32>
      gpu.return
    }
    gpu.func @scalar(%a: memref<1x1xf32>) kernel {
      %s = memref.collapse_shape %a [] : memref<1x1xf32> into memref<f32>
      %v = memref.load %s[] : memref<f32>
      %e = memref.expand_shape %s [] output_shape [1, 1] : memref<f32> into memref<1x1xf32>
      %c0 = arith.constant 0 : index
      %w = arith.addf %v, %v : f32
      memref.store %w, %e[%c0, %c0] : memref<1x1xf32>
      gpu.return
    }
    // a as 8 rows of 32 from its element 3: the row 1, column 2 is element 37, 148 bytes from a.
    gpu.func @recast(%a: memref<256xf32>, %i: index) kernel {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %v = memref.reinterpret_cast %a to offset: [3], sizes: [8, 32], strides: [32, 1] : memref<256xf32> to memref<8x32xf32, strided<[32, 1], offset: 3>>
      %x = memref.load %v[%c1, %c2] : memref<8x32xf32, strided<[32, 1], offset: 3>>
      memref.store %x, %a[%i] : memref<256xf32>
      gpu.return
    }
  }
}

// A reinterpret_cast starts from its source's base: element 3 + 32 + 2 of a, 148 (0x94) bytes.
// GCN: recast:
// GCN: s_load_dword s{{[0-9]+}}, s[{{[0-9]+}}:{{[0-9]+}}], 0x94
// GCN: s_endpgm
// ROUND: memref.reinterpret_cast %{{.*}} to offset: [3], sizes: [8, 32], strides: [32, 1] : memref<256xf32> to memref<8x32xf32, strided<[32, 1], offset: 3>>
