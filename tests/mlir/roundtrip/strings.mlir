// RUN: gpu-translate --emit=mlir %s | FileCheck %s

// Blobs hold arbitrary bytes: escapes decode to exact bytes and print back as \XX.

module {
  // CHECK: gpu.binary @nul [#gpu.object<#cpu.target, "\00\01\02\FF\FEab\\\22">]
  gpu.binary @nul [#gpu.object<#cpu.target, "\00\01\02\ff\FEab\\\"">]
  // CHECK: gpu.binary @escapes [#gpu.object<#cpu.target, "line\0Atab\09quote\22">]
  gpu.binary @escapes [#gpu.object<#cpu.target, "line\ntab\tquote\"">]
  // UTF-8 text is bytes like any other and is printed escaped.
  // CHECK: gpu.binary @utf8 [#gpu.object<#cpu.target, "caf\C3\A9">]
  gpu.binary @utf8 [#gpu.object<#cpu.target, "café">]
  // CHECK: gpu.binary @ptx [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, properties = {O = 3 : i32}, assembly = ".version 8.0">]
  gpu.binary @ptx [#gpu.object<#nvvm.target<O = 3, chip = "sm_80">, properties = {O = 3 : i32}, assembly = ".version 8.0">]
  // CHECK: gpu.binary @formats [#gpu.object<#nvvm.target, offload = "a">, #gpu.object<#nvvm.target, bin = "b">, #gpu.object<#nvvm.target, "c">]
  gpu.binary @formats [#gpu.object<#nvvm.target, offload = "a">, #gpu.object<#nvvm.target, bin = "b">, #gpu.object<#nvvm.target, fatbin = "c">]
  // CHECK: gpu.binary @cpus [#gpu.object<#cpu.target<chip = "native">, "">, #gpu.object<#cpu.target<O = 1, chip = "skylake", features = "+avx2,-avx512f">, "">]
  gpu.binary @cpus [#gpu.object<#cpu.target<chip = "native">, "">, #gpu.object<#cpu.target<features = "+avx2,-avx512f", O = 1, chip = "skylake">, "">]
  // CHECK: gpu.binary @targets [#gpu.object<#rocdl.target<chip = "gfx90a", features = "+xnack", abi = "500">, "">, #gpu.object<#cpu.target<O = 3, triple = "x86_64-unknown-linux-gnu">, "">, #gpu.object<#nvvm.target<triple = "nvptx-nvidia-cuda", features = "+ptx80", flags = {fast}, link = ["a.bc"]>, "">]
  gpu.binary @targets [#gpu.object<#rocdl.target<chip = "gfx90a", features = "+xnack", abi = "500">, "">, #gpu.object<#cpu.target<O = 3, triple = "x86_64-unknown-linux-gnu">, "">, #gpu.object<#nvvm.target<triple = "nvptx-nvidia-cuda", features = "+ptx80", flags = {fast}, link = ["a.bc"]>, "">]
}
