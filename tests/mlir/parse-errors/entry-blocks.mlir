// RUN: gpu-translate --emit=mlir --split-input-file --verify-diagnostics %s

// A region whose op gives its entry block arguments (a signature with names, an scf.for's induction
// variable) cannot also name that block, as upstream's parser has it; tests/mlir/roundtrip/entry-blocks.mlir
// holds the regions that may.

func.func @named_twice(%x: f32) -> f32 {
// expected-error @below {{Invalid block name (must not name the entry block of a region whose arguments the op gives): ^bb0}}
^bb0(%y: f32):
  return %y : f32
}

// -----

func.func @loop(%n: index) {
  %zero = arith.constant 0 : index
  %one = arith.constant 1 : index
  scf.for %i = %zero to %n step %one {
  // expected-error @below {{Invalid block name (must not name the entry block of a region whose arguments the op gives): ^body}}
  ^body(%j: index):
    scf.yield
  }
  return
}
