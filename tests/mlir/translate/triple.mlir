// RUN: gpu-translate %s | FileCheck %s --check-prefix=HOST
// RUN: gpu-translate --target-triple=aarch64-linux-gnu %s | FileCheck %s --check-prefix=ARM
// RUN: gpu-translate --target-triple=x86_64-linux-gnu %s | FileCheck %s --check-prefix=X86
// RUN: gpu-translate --target-triple=x86_64-pc-linux-gnu %s | FileCheck %s --check-prefix=PC

// Triples as clang writes them: the host's as the system clang names it (vendor pc for x86 Linux), and a
// given one in LLVM's normal form, as clang writes its --target.
// HOST: target triple = "{{x86_64-pc-linux-gnu|aarch64-unknown-linux-gnu}}"
// ARM: target triple = "aarch64-unknown-linux-gnu"
// X86: target triple = "x86_64-unknown-linux-gnu"
// PC: target triple = "x86_64-pc-linux-gnu"
module {
  llvm.func @f() {
    llvm.return
  }
}
