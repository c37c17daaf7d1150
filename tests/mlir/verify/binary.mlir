// RUN: gpu-translate --split-input-file --verify-diagnostics %s

module {
  // expected-error @+1 {{Invalid gpu.binary objects (must be a non-empty array of #gpu.object): []}}
  gpu.binary @binary []
}

// -----

module {
  // expected-error @+1 {{Invalid offloading handler (must be an offloading handler attribute): 1 : i64}}
  gpu.binary @binary <1> [#gpu.object<#nvvm.target, "">]
}

// -----

module {
  // expected-error @+1 {{Invalid object index (must be >= 0): -1}}
  gpu.binary @binary <#gpu.select_object<-1>> [#gpu.object<#nvvm.target, "">]
}

// -----

module {
  // expected-error @+1 {{Invalid select_object target (must be an integer or a GPU target attribute): "sm_90"}}
  gpu.binary @binary <#gpu.select_object<"sm_90">> [#gpu.object<#nvvm.target, "">]
}

// -----

module {
  // expected-error @+1 {{Invalid object index (must be < 2, the number of objects): 2}}
  gpu.binary @binary <#gpu.select_object<2>> [#gpu.object<#nvvm.target, "">, #gpu.object<#rocdl.target, "">]
}

// -----

module {
  // expected-error @+1 {{Invalid select_object target (must match the target of an object): #nvvm.target<chip = "sm_80">}}
  gpu.binary @binary <#gpu.select_object<#nvvm.target<chip = "sm_80">>> [#gpu.object<#nvvm.target, "">, #gpu.object<#rocdl.target, "">]
}

// -----

module {
  // expected-error @+1 {{Invalid gpu.binary object #1 (must be a #gpu.object): "raw"}}
  gpu.binary @binary [#gpu.object<#nvvm.target, "">, "raw"]
}

// -----

module {
  // expected-error @+1 {{Invalid #gpu.object target (must be a GPU target attribute): 3 : i64}}
  gpu.binary @binary [#gpu.object<3, "">]
}

// -----

// Every problem is reported, not only the first.
module {
  // expected-error @+1 {{Invalid gpu.binary objects (must be a non-empty array of #gpu.object): []}}
  gpu.binary @a []
  // expected-error @+1 {{Invalid object index (must be >= 0): -4}}
  gpu.binary @b <#gpu.select_object<-4>> [#gpu.object<#nvvm.target, "">]
  // expected-error @+1 {{Invalid symbol (must be unique in its symbol table): @b}}
  gpu.binary @b [#gpu.object<#nvvm.target, "">]
}
