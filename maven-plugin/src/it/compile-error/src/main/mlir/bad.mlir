// %zz is used but never defined.
func.func @main() {
  %a = arith.constant 1 : i32
  %b = arith.addi %a, %zz : i32
  return
}
