// RUN: gpu-translate --split-input-file --verify-diagnostics %s

// A value is used only where its definition dominates the use.

func.func @f(%c: i1) {
  cf.cond_br %c, ^a, ^b
^a:
  %x = arith.constant 1 : i32
  cf.br ^c
^b:
  cf.br ^c
^c:
  // expected-error @+1 {{Invalid operand (must be defined in a block that dominates its use): result #0 of arith.constant}}
  %y = arith.addi %x, %x : i32
  return
}

// A definition in the entry block dominates every block.
func.func @g(%c: i1) {
  %x = arith.constant 1 : i32
  cf.cond_br %c, ^a, ^b
^a:
  %y = arith.addi %x, %x : i32
  return
^b:
  return
}
