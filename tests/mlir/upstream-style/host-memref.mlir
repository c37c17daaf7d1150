// Host code in memref, as upstream's finalize-memref-to-llvm lowers it, checked by the program itself:
// every value read back is compared with cf.assert, which aborts on a difference. Views (subviews with
// static and dynamic offsets, sizes and steps, reinterpret_cast, collapse and expand), copies through
// loops and in one block, unranked memrefs and their rank and sizes, and allocations on the heap (aligned
// as asked) and on the stack.
// RUN: gpu-translate --emit=exe --entry-point=main %s -o %t && %t | FileCheck %s --check-prefix=VALUES
// RUN: gpu-translate --emit=llvm %s | FileCheck %s

// alignment = 64: 63 bytes more from malloc, and the aligned pointer the next multiple of 64 after it.
// CHECK-LABEL: define void @main()
// CHECK: call ptr @malloc(i64 159)
// CHECK: and i64 %{{[0-9]+}}, 63
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %a = memref.alloc() {alignment = 64} : memref<4x6xi32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c6 step %c1 {
      %i32 = arith.index_cast %i : index to i32
      %j32 = arith.index_cast %j : index to i32
      %ten = arith.constant 10 : i32
      %t = arith.muli %i32, %ten : i32
      %v = arith.addi %t, %j32 : i32
      memref.store %v, %a[%i, %j] : memref<4x6xi32>
    }
  }
  // Rows 1 and 2, columns 2 to 4.
  %s = memref.subview %a[1, 2] [2, 3] [1, 1] : memref<4x6xi32> to memref<2x3xi32, strided<[6, 1], offset: 8>>
  %s12 = memref.load %s[%c1, %c2] : memref<2x3xi32, strided<[6, 1], offset: 8>>
  %w_s12 = arith.constant 24 : i32
  call @expect(%s12, %w_s12) : (i32, i32) -> ()
  // Every other row from 0 and every other column from 1, all given as values.
  %d = memref.subview %a[%c0, %c1] [%c2, %c3] [%c2, %c2] : memref<4x6xi32> to memref<?x?xi32, strided<[?, ?], offset: ?>>
  %d12 = memref.load %d[%c1, %c2] : memref<?x?xi32, strided<[?, ?], offset: ?>>
  %w_d12 = arith.constant 25 : i32
  call @expect(%d12, %w_d12) : (i32, i32) -> ()
  %dn = memref.dim %d, %c1 : memref<?x?xi32, strided<[?, ?], offset: ?>>
  %dn32 = arith.index_cast %dn : index to i32
  %w_dn32 = arith.constant 3 : i32
  call @expect(%dn32, %w_dn32) : (i32, i32) -> ()
  // A copy of a strided view goes element by element; of a dense memref, in one block.
  %b = memref.alloc() : memref<2x3xi32>
  memref.copy %s, %b : memref<2x3xi32, strided<[6, 1], offset: 8>> to memref<2x3xi32>
  %b10 = memref.load %b[%c1, %c0] : memref<2x3xi32>
  %w_b10 = arith.constant 22 : i32
  call @expect(%b10, %w_b10) : (i32, i32) -> ()
  %c = memref.alloc() : memref<4x6xi32>
  memref.copy %a, %c : memref<4x6xi32> to memref<4x6xi32>
  %c35 = memref.load %c[%c3, %c5] : memref<4x6xi32>
  %w_c35 = arith.constant 35 : i32
  call @expect(%c35, %w_c35) : (i32, i32) -> ()
  // The same elements, as 24 in a row and as 2x3x4.
  %f = memref.collapse_shape %a [[0, 1]] : memref<4x6xi32> into memref<24xi32>
  %c13 = arith.constant 13 : index
  %f13 = memref.load %f[%c13] : memref<24xi32>
  %w_f13 = arith.constant 21 : i32
  call @expect(%f13, %w_f13) : (i32, i32) -> ()
  %e = memref.expand_shape %f [[0, 1, 2]] output_shape [2, 3, 4] : memref<24xi32> into memref<2x3x4xi32>
  %e123 = memref.load %e[%c1, %c2, %c3] : memref<2x3x4xi32>
  %w_e123 = arith.constant 35 : i32
  call @expect(%e123, %w_e123) : (i32, i32) -> ()
  // Column 1 of rows 1 to 3, from the base.
  %r = memref.reinterpret_cast %a to offset: [7], sizes: [3], strides: [6] : memref<4x6xi32> to memref<3xi32, strided<[6], offset: 7>>
  %r2 = memref.load %r[%c2] : memref<3xi32, strided<[6], offset: 7>>
  %w_r2 = arith.constant 31 : i32
  call @expect(%r2, %w_r2) : (i32, i32) -> ()
  // Unranked: its rank and sizes from the descriptor it points to, and ranked again.
  %u = memref.cast %a : memref<4x6xi32> to memref<*xi32>
  %rank = memref.rank %u : memref<*xi32>
  %rank32 = arith.index_cast %rank : index to i32
  %w_rank32 = arith.constant 2 : i32
  call @expect(%rank32, %w_rank32) : (i32, i32) -> ()
  %u1 = memref.dim %u, %c1 : memref<*xi32>
  %u132 = arith.index_cast %u1 : index to i32
  %w_u132 = arith.constant 6 : i32
  call @expect(%u132, %w_u132) : (i32, i32) -> ()
  %back = memref.cast %u : memref<*xi32> to memref<?x6xi32>
  %back30 = memref.load %back[%c3, %c0] : memref<?x6xi32>
  %w_back30 = arith.constant 30 : i32
  call @expect(%back30, %w_back30) : (i32, i32) -> ()
  %rows = memref.dim %back, %c0 : memref<?x6xi32>
  %rows32 = arith.index_cast %rows : index to i32
  %w_rows32 = arith.constant 4 : i32
  call @expect(%rows32, %w_rows32) : (i32, i32) -> ()
  // On the stack, of a size known at run time.
  %st = memref.alloca(%c3) : memref<?xi32>
  %seven = arith.constant 7 : i32
  memref.store %seven, %st[%c2] : memref<?xi32>
  %st2 = memref.load %st[%c2] : memref<?xi32>
  %w_st2 = arith.constant 7 : i32
  call @expect(%st2, %w_st2) : (i32, i32) -> ()
  memref.dealloc %b : memref<2x3xi32>
  memref.dealloc %c : memref<4x6xi32>
  memref.dealloc %a : memref<4x6xi32>
  return
}

// Each value read back, in order, as the program printed it:
// VALUES: 24
// VALUES-NEXT: 25
// VALUES-NEXT: 3
// VALUES-NEXT: 22
// VALUES-NEXT: 35
// VALUES-NEXT: 21
// VALUES-NEXT: 35
// VALUES-NEXT: 31
// VALUES-NEXT: 2
// VALUES-NEXT: 6
// VALUES-NEXT: 30
// VALUES-NEXT: 4
// VALUES-NEXT: 7
func.func private @expect(%got: i32, %want: i32) {
  vector.print %got : i32
  %same = arith.cmpi eq, %got, %want : i32
  cf.assert %same, "a value read back differs"
  return
}
