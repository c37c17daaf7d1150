// RUN: gpu-translate -v --emit=bc %s -o %t.bc 2>&1 | FileCheck %s
// RUN: gpu-translate -v --emit=obj %s -o %t.o 2>&1 | FileCheck %s --check-prefix=OBJ
// RUN: gpu-translate -v --emit=mlir %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=MLIR
// -v prints one table on stderr at the end: each phase's wall time and share, in the order the phases
// ran, then the rest and the total; no line is logged per phase.
// CHECK-NOT: {{ in [0-9]+ ms}}
// CHECK: mgpu execution timing report
// CHECK: Total Execution Time: {{[0-9]+\.[0-9]+}} seconds
// CHECK: ----Wall Time----  ----Name----
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  read$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  parse$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  verify$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  translate$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  LLVM verify$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  emit$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  write$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  other \(JVM start-up, options, clean-up\)$}}
// CHECK-NEXT: {{^ +[0-9]+\.[0-9]{4} \(100\.0%\)  Total$}}
// CHECK-NOT: {{.}}
// An object's code generation is its own phase.
// OBJ: LLVM verify
// OBJ-NEXT: {{^ +[0-9]+\.[0-9]{4} \( *[0-9]+\.[0-9]%\)  codegen$}}
// OBJ-NEXT: write
// MLIR: verify
// MLIR-NEXT: print
// MLIR-NEXT: write
module {
}
