// RUN: gpu-translate --emit=mlir %s | FileCheck %s
// RUN: gpu-translate --emit=mlir %s | gpu-translate --emit=mlir - | FileCheck %s

// Values are named as upstream's printer names them. Constants and a few ops suggest names, made unique in
// their scope with a suffix _N (one counter for all names); other results are numbered. A region's own
// values come first, block by block; then each nested region goes on from where its parent region ended,
// so sibling regions reuse the same numbers and names (the counter of suffixes goes on from there too).

module attributes {gpu.container_module} {
  // CHECK-LABEL: func.func @f(%arg0: i1, %arg1: index, %arg2: memref<4x4xf32>) -> index
  func.func @f(%c: i1, %n: index, %m: memref<4x4xf32>) -> index {
    // CHECK-NEXT: %c0 = arith.constant 0 : index
    // CHECK-NEXT: %c0_0 = arith.constant 0 : index
    // CHECK-NEXT: %true = arith.constant true
    // CHECK-NEXT: %false = arith.constant false
    // CHECK-NEXT: %c7_i32 = arith.constant 7 : i32
    // CHECK-NEXT: %c-1_i8 = arith.constant -1 : i8
    // CHECK-NEXT: %cst = arith.constant 1.500000e+00 : f32
    // CHECK-NEXT: %cst_1 = arith.constant 2.500000e+00 : f32
    %z = arith.constant 0 : index
    %z2 = arith.constant 0 : index
    %t = arith.constant true
    %f = arith.constant false
    %i7 = arith.constant 7 : i32
    %m1 = arith.constant 255 : i8
    %x = arith.constant 1.5 : f32
    %y = arith.constant 2.5 : f32
    // CHECK-NEXT: %0:2 = scf.for %arg3 = %c0 to %arg1 step %arg1 iter_args(%arg4 = %c0, %arg5 = %c0_0) -> (index, index) {
    // CHECK-NEXT:   %4 = arith.addi %arg4, %arg3 : index
    // CHECK-NEXT:   %5 = scf.for %arg6 = %c0 to %arg1 step %arg1 iter_args(%arg7 = %4) -> (index) {
    // CHECK-NEXT:     %c5 = arith.constant 5 : index
    // CHECK-NEXT:     %c0_3 = arith.constant 0 : index
    // CHECK-NEXT:     %6 = arith.addi %arg7, %c5 : index
    %r:2 = scf.for %i = %z to %n step %n iter_args(%a = %z, %b = %z2) -> (index, index) {
      %q = arith.addi %a, %i : index
      %w = scf.for %j = %z to %n step %n iter_args(%aa = %q) -> (index) {
        %c5 = arith.constant 5 : index
        %again = arith.constant 0 : index
        %k = arith.addi %aa, %c5 : index
        scf.yield %k : index
      }
      scf.yield %w, %q : index, index
    }
    // CHECK: %1 = scf.if %arg0 -> (index) {
    // CHECK-NEXT:   %4 = arith.addi %arg1, %c0 : index
    // CHECK:      } else {
    // CHECK-NEXT:   %4 = arith.subi %arg1, %c0 : index
    %s = scf.if %c -> index {
      %p = arith.addi %n, %z : index
      scf.yield %p : index
    } else {
      %p = arith.subi %n, %z : index
      scf.yield %p : index
    }
    // CHECK: %alloca = memref.alloca() : memref<4xf32>
    // CHECK-NEXT: %dim = memref.dim %alloca, %c0 : memref<4xf32>
    // CHECK-NEXT: %subview = memref.subview %arg2[0, 0] [2, 2] [1, 1]
    // CHECK-NEXT: %collapse_shape = memref.collapse_shape %arg2 {{\[\[}}0, 1]]
    // CHECK-NEXT: %cast = memref.cast %alloca : memref<4xf32> to memref<?xf32>
    %al = memref.alloca() : memref<4xf32>
    %d = memref.dim %al, %z : memref<4xf32>
    %sv = memref.subview %m[0, 0] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1]>>
    %cs = memref.collapse_shape %m [[0, 1]] : memref<4x4xf32> into memref<16xf32>
    %ca = memref.cast %al : memref<4xf32> to memref<?xf32>
    // CHECK-NEXT: %2 = gpu.wait async
    // CHECK-NEXT: %memref, %asyncToken = gpu.alloc async [%2] () : memref<4xf32>
    // CHECK-NEXT: %memref_2 = gpu.alloc () : memref<4xf32>
    %tok = gpu.wait async
    %g, %tok2 = gpu.alloc async [%tok] () : memref<4xf32>
    %g2 = gpu.alloc () : memref<4xf32>
    // CHECK-NEXT: gpu.launch blocks(%arg3, %arg4, %arg5) in (%arg9 = %arg1, %arg10 = %arg1, %arg11 = %arg1) threads(%arg6, %arg7, %arg8) in (%arg12 = %arg1, %arg13 = %arg1, %arg14 = %arg1) {
    // CHECK-NEXT:   %4 = gpu.lane_id
    // CHECK-NEXT:   %global_id_x = gpu.global_id x
    // CHECK-NEXT:   %grid_dim_y = gpu.grid_dim y
    // CHECK-NEXT:   %thread_id_z = gpu.thread_id z
    // CHECK-NEXT:   %shuffleResult, %valid = gpu.shuffle xor %cst, %c7_i32, %c7_i32 : f32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
      %l = gpu.lane_id
      %gi = gpu.global_id x
      %gd = gpu.grid_dim y
      %ti = gpu.thread_id z
      %sh, %ok = gpu.shuffle xor %x, %i7, %i7 : f32
      gpu.terminator
    }
    // CHECK: ^bb1(%3: index):
    cf.br ^bb1(%z : index)
  ^bb1(%p: index):
    cf.cond_br %c, ^bb1(%p : index), ^bb2
  ^bb2:
    return %r#0 : index
  }

  // A function starts again.
  // CHECK-LABEL: func.func @g(%arg0: index)
  // CHECK-NEXT: %c0 = arith.constant 0 : index
  // CHECK-NEXT: %0 = arith.addi %arg0, %c0 : index
  func.func @g(%n: index) -> index {
    %z = arith.constant 0 : index
    %s = arith.addi %n, %z : index
    return %s : index
  }
}
