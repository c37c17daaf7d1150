// A program as upstream's integration tests write them: vector.print of every element kind and
// printMemref* of strided views, lowered by upstream's own passes. Linked against upstream's runner
// utilities or mgpu's, it must print the same bytes.
module {
  func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF64(memref<*xf64>)
  func.func private @printMemrefI8(memref<*xi8>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefShapeF32(memref<*xf32>) attributes { llvm.emit_c_interface }
  func.func private @verifyMemRefF32(memref<*xf32>, memref<*xf32>) -> i64 attributes { llvm.emit_c_interface }

  func.func @main() {
    %v = arith.constant dense<[[1.5, -0.0, 0x7FC00000, 1.0e-40], [3.4e38, 0x7F800000, 0.1, 123456789.0]]> : vector<2x4xf32>
    vector.print %v : vector<2x4xf32>
    %h = arith.constant dense<[1.0, -2.5, 65504.0, 6.0e-8]> : vector<4xf16>
    vector.print %h : vector<4xf16>
    %b = arith.constant dense<[1.0, -2.5, 3.0e38, 1.0e-39]> : vector<4xbf16>
    vector.print %b : vector<4xbf16>
    %i = arith.constant dense<[-128, 0, 65, 127]> : vector<4xi8>
    vector.print %i : vector<4xi8>
    %u = arith.constant dense<[255, 0, 65, 127]> : vector<4xui8>
    vector.print %u : vector<4xui8>
    %x = arith.constant dense<[0, 1, -1]> : vector<3xindex>
    vector.print %x : vector<3xindex>
    %l = arith.constant dense<[true, false]> : vector<2xi1>
    vector.print %l : vector<2xi1>
    %d = arith.constant 2.718281828459045 : f64
    vector.print %d : f64
    %s = arith.constant dense<[9223372036854775807, -9223372036854775808]> : vector<2xi64>
    vector.print %s : vector<2xi64> punctuation <no_punctuation>
    vector.print punctuation <comma>
    vector.print punctuation <newline>
    vector.print str "strings too\n"

    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %m = memref.alloc() : memref<3x4xf32>
    %e = memref.alloc() : memref<3x4xf32>
    %n = memref.alloc() : memref<3x4xi32>
    %q = memref.alloc() : memref<3x4xf64>
    %t = memref.alloc() : memref<3x4xi8>
    scf.for %r = %c0 to %c3 step %c1 {
      scf.for %k = %c0 to %c4 step %c1 {
        %ri = arith.index_cast %r : index to i32
        %ki = arith.index_cast %k : index to i32
        %c10 = arith.constant 10 : i32
        %a = arith.muli %ri, %c10 : i32
        %y = arith.subi %a, %ki : i32
        %f = arith.sitofp %y : i32 to f32
        %tenth = arith.constant 0.1 : f32
        %g = arith.mulf %f, %tenth : f32
        memref.store %g, %m[%r, %k] : memref<3x4xf32>
        memref.store %g, %e[%r, %k] : memref<3x4xf32>
        memref.store %y, %n[%r, %k] : memref<3x4xi32>
        %w = arith.extf %g : f32 to f64
        memref.store %w, %q[%r, %k] : memref<3x4xf64>
        %c65 = arith.constant 65 : i32
        %z = arith.addi %y, %c65 : i32
        %zz = arith.trunci %z : i32 to i8
        memref.store %zz, %t[%r, %k] : memref<3x4xi8>
      }
    }
    %mu = memref.cast %m : memref<3x4xf32> to memref<*xf32>
    call @printMemrefF32(%mu) : (memref<*xf32>) -> ()
    %sub = memref.subview %m[1, 1] [2, 2] [1, 2] : memref<3x4xf32> to memref<2x2xf32, strided<[4, 2], offset: 5>>
    %su = memref.cast %sub : memref<2x2xf32, strided<[4, 2], offset: 5>> to memref<*xf32>
    call @printMemrefF32(%su) : (memref<*xf32>) -> ()
    call @printMemrefShapeF32(%su) : (memref<*xf32>) -> ()
    %nu = memref.cast %n : memref<3x4xi32> to memref<*xi32>
    call @printMemrefI32(%nu) : (memref<*xi32>) -> ()
    %qu = memref.cast %q : memref<3x4xf64> to memref<*xf64>
    call @printMemrefF64(%qu) : (memref<*xf64>) -> ()
    %tu = memref.cast %t : memref<3x4xi8> to memref<*xi8>
    call @printMemrefI8(%tu) : (memref<*xi8>) -> ()

    %eu = memref.cast %e : memref<3x4xf32> to memref<*xf32>
    %same = call @verifyMemRefF32(%mu, %eu) : (memref<*xf32>, memref<*xf32>) -> i64
    vector.print %same : i64
    %big = arith.constant 1.0e30 : f32
    memref.store %big, %e[%c1, %c3] : memref<3x4xf32>
    %diff = call @verifyMemRefF32(%mu, %eu) : (memref<*xf32>, memref<*xf32>) -> i64
    vector.print %diff : i64

    %col = memref.alloc() : memref<3xf32>
    %cv = memref.subview %m[0, 2] [3, 1] [1, 1] : memref<3x4xf32> to memref<3xf32, strided<[4], offset: 2>>
    memref.copy %cv, %col : memref<3xf32, strided<[4], offset: 2>> to memref<3xf32>
    %colu = memref.cast %col : memref<3xf32> to memref<*xf32>
    call @printMemrefF32(%colu) : (memref<*xf32>) -> ()
    memref.dealloc %m : memref<3x4xf32>
    memref.dealloc %e : memref<3x4xf32>
    memref.dealloc %n : memref<3x4xi32>
    memref.dealloc %q : memref<3x4xf64>
    memref.dealloc %t : memref<3x4xi8>
    memref.dealloc %col : memref<3xf32>
    return
  }
}
