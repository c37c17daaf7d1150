// RUN: gpu-translate --split-input-file --verify-diagnostics %s

// An attribute that translation cannot give LLVM is an error, never dropped.

// expected-error @+1 {{Invalid attribute of llvm.func (must be one that translation gives LLVM: CConv, alignment, always_inline, arg_attrs, function_entry_count, function_type, garbageCollector, linkage, no_inline, optimize_none, passthrough, res_attrs, section, sym_name, unnamed_addr, visibility_): frobnicate}}
llvm.func @f() attributes {frobnicate} {
  llvm.return
}

// -----

// expected-error @+1 {{Invalid alignment of llvm.func (must be a power of two): 12 : i64}}
llvm.func @f() attributes {alignment = 12 : i64} {
  llvm.return
}

// -----

// expected-error @+1 {{Invalid argument attribute of llvm.func (must be llvm.inreg, llvm.noalias, llvm.nocapture, llvm.nofree, llvm.nonnull, llvm.noundef, llvm.readnone, llvm.readonly, llvm.returned, llvm.signext, llvm.writeonly, llvm.zeroext as units, or llvm.align, llvm.dereferenceable, llvm.dereferenceable_or_null with an integer): llvm.byval = i32}}
llvm.func @f(%p: !llvm.ptr {llvm.byval = i32}) {
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr) {
  // expected-error @+1 {{Invalid attribute of llvm.load (must be one that translation gives LLVM: alignment, invariant, nontemporal, ordering, volatile_): syncscope}}
  %v = llvm.load %p {syncscope = "agent"} : !llvm.ptr -> i32
  llvm.return
}

// -----

// A local symbol must have default visibility: LLVM's IR parser refuses `internal hidden`, which LLVM's
// in-memory verifier and upstream's translation let through into text that llc cannot read.
// expected-error @+1 {{Invalid visibility of an llvm.func with internal linkage (must be default, as LLVM requires of local symbols): hidden}}
llvm.func internal hidden @f() {
  llvm.return
}

// -----

// expected-error @+1 {{Invalid visibility of an llvm.func with private linkage (must be default, as LLVM requires of local symbols): protected}}
llvm.func private protected @f() {
  llvm.return
}
