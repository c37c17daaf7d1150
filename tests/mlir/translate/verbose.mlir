// RUN: gpu-translate -v --emit=bc %s -o %t.bc 2>&1 | FileCheck %s
// -v logs the time of each phase on stderr.
// CHECK: read {{[0-9]+}} bytes in {{[0-9]+}} ms
// CHECK: parsed in {{[0-9]+}} ms
// CHECK: verified in {{[0-9]+}} ms
// CHECK: translated and emitted bc in {{[0-9]+}} ms
// CHECK: total {{[0-9]+}} ms
module {
}
