// RUN: gpu-translate --emit=mlir --split-input-file --verify-diagnostics %s

// The rules of upstream's GPU dialect that its parser enforces, on the ops mgpu shares with it, each
// reported on the line of the token upstream reports; tests/mlir/verify/upstream-rules.mlir holds those
// its verifier enforces.

module attributes {gpu.container_module} {
  func.func @quoted_kernel(%w: index) {
    // expected-error @below {{Invalid syntax (must be a symbol name): a string}}
    gpu.launch_func "objs" blocks in (%w, %w, %w) threads in (%w, %w, %w)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @attributed_operand(%w: index, %v: i16) {
    // expected-error @below {{Invalid syntax (must be ')'): '{'}}
    gpu.launch_func @objs::@go blocks in (%w, %w, %w) threads in (%w, %w, %w) args(%v : i16 {tag})
    return
  }
}

// -----

gpu.module @device_side {
  // expected-error @below {{Invalid function body (must follow named arguments): @types_only}}
  gpu.func @types_only(i16, f64) kernel {
  ^bb0(%v: i16, %x: f64):
    gpu.return
  }
}

// -----

// -----

func.func @sync_named() {
  // expected-error @below {{Invalid result list (must name the 0 results of gpu.wait): 1 names}}
  %done = gpu.wait
  return
}

// -----

func.func @async_unnamed() {
  // expected-error @below {{Invalid async op (must name its !gpu.async.token result): no result name}}
  gpu.wait async
  return
}

// -----

// A gpu.launch's attributions take no attributes (upstream: "expected ')' in argument list"); a gpu.func's do.
func.func @launch_attribution_attrs(%n: index) {
  // expected-error @+1 {{Invalid workgroup attribution of gpu.launch (takes no attributes; an outlined kernel's gpu.func does): {llvm.align = 32 : i64}}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %n, %y = %n, %z = %n) threads(%tx, %ty, %tz) in (%a = %n, %b = %n, %c = %n) workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>> {llvm.align = 32 : i64}) {
    gpu.terminator
  }
  return
}

// -----

gpu.module @printf_types {
  gpu.func @f(%x: i32) kernel {
    // expected-error @+1 {{Invalid arguments of gpu.printf (must have one type each): 2 arguments, 1 types}}
    gpu.printf "%d %d\n", %x, %x : i32
    gpu.return
  }
}

// -----

// expected-error @+1 {{Invalid dense elements (must have 4 at depth 1): 3}}
memref.global @short : memref<4xf32> = dense<[1.0, 2.0, 3.0]>

// -----

// expected-error @+1 {{Invalid dense element of f32 (must be a float: a decimal point, an exponent or hexadecimal bits): 1}}
memref.global @ints : memref<2xf32> = dense<[1, 2]>

// -----

// expected-error @+1 {{Invalid dense elements (must be nested 1 deep, as the shape)}}
memref.global @deep : memref<2xi32> = dense<[[1], [2]]>

// -----

// expected-error @+1 {{Invalid dense elements string (must hold 2 elements of i32, 4 bytes each): 6 bytes}}
memref.global @hex : memref<2xi32> = dense<"0x010000000200">

// -----

gpu.module @subgroup_reduce_kind {
  gpu.func @f(%x: i32) kernel {
    // expected-error @+1 {{Invalid reduction of gpu.subgroup_reduce (must be one of add, mul, minui, minsi, minnumf, maxui, maxsi, maxnumf, and, or, xor, minimumf, maximumf): sum}}
    %r = gpu.subgroup_reduce sum %x : (i32) -> i32
    gpu.return
  }
}

// -----

// expected-error @+1 {{Invalid dense element type (must be at most 64 bits wide): i128}}
memref.global @wide : memref<2xi128> = dense<[1, 2]>
