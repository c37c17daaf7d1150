// Excluded by the pom: it would not compile.
func.func @f() {
  return %x : i32
}
