// RUN: gpu-translate --split-input-file --verify-diagnostics %s

module {
  func.func private @f()
  // expected-error @+1 {{Invalid symbol (must be unique in its symbol table): @f}}
  func.func private @f()
}

// -----

module {
  func.func @f(%a: i32) -> i32 {
    %b = arith.addi %a, %a : i32
    // expected-error @+1 {{Invalid block (must end with a terminator): ends with arith.addi}}
    %c = arith.addi %b, %b : i32
  }
}

// -----

module {
  func.func @f() {
    // expected-error @+1 {{Invalid terminator (must be the last op of its block): func.return}}
    return
    gpu.wait
    return
  }
}

// -----

module {
  func.func @f(%a: i32) -> i64 {
    // expected-error @+1 {{Invalid func.return operands (must match the function's results (i64)): (i32)}}
    return %a : i32
  }
}

// -----

module {
  func.func @f(%a: i32, %b: i64) -> i32 {
    // expected-error @+1 {{Invalid operand types of arith.addi (must all be i32): i64}}
    %c = "arith.addi"(%a, %b) : (i32, i64) -> i32
    return %c : i32
  }
}

// -----

module {
  func.func @f(%a: f32) -> f32 {
    // expected-error @+1 {{Invalid operand of arith.addi (must be an integer or index): f32}}
    %c = arith.addi %a, %a : f32
    return %c : f32
  }
}

// -----

module {
  func.func @f(%a: i32) {
    // expected-error @+1 {{Invalid operand (must be defined before its use): result #0 of arith.addi}}
    %x = arith.addi %y, %a : i32
    %y = arith.addi %a, %a : i32
    return
  }
}

// -----

module {
  func.func private @g(i32) -> i32
  func.func @f(%a: i64) {
    // expected-error @+1 {{Invalid call type (must match the callee's type (i32) -> i32): (i64) -> i32}}
    %r = func.call @g(%a) : (i64) -> i32
    // expected-error @+1 {{Invalid callee (must name a func.func): @nowhere}}
    func.call @nowhere() : () -> ()
    return
  }
}

// -----

module {
  func.func @f(%a: i32) {
    // expected-error @+1 {{Invalid operation (must be registered): test.op}}
    "test.op"(%a) : (i32) -> ()
    return
  }
}

// -----

module {
  func.func @f(%c: i1, %a: i32) {
    // expected-error @+1 {{Invalid successor operands (must match the block's arguments (i64)): (i32)}}
    cf.cond_br %c, ^bb1(%a : i32), ^bb2
  ^bb1(%x: i64):
    return
  ^bb2:
    return
  }
}

// -----

module {
  llvm.func @f(%p: i64) {
    // expected-error @+1 {{Invalid llvm.load address (must be !llvm.ptr): i64}}
    %v = llvm.load %p : i64 -> i32
    llvm.return
  }
}

// -----

module {
  llvm.func @f(%p: !llvm.ptr) {
    // expected-error @+1 {{Invalid llvm.load result (must be an integer, float, pointer, struct or array type): !llvm.void}}
    %v = llvm.load %p : !llvm.ptr -> !llvm.void
    %n = llvm.mlir.constant(1 : i64) : i64
    // expected-error @+1 {{Invalid llvm.alloca element type (must be an integer, float, pointer, struct or array type): memref<4xf32>}}
    %a = llvm.alloca %n x memref<4xf32> : (i64) -> !llvm.ptr
    llvm.return
  }
}

// -----

module {
  llvm.func @f(%x: f32, %i: i64) {
    // expected-error @+1 {{Invalid llvm.sext types (must be a valid sext cast): f32 to i64}}
    %a = llvm.sext %x : f32 to i64
    // expected-error @+1 {{Invalid llvm.trunc types (must be a valid trunc cast): i64 to i64}}
    %b = llvm.trunc %i : i64 to i64
    llvm.return
  }
}

// -----

module {
  llvm.func @f(%p: !llvm.ptr, %i: i64) {
    // expected-error @+1 {{Invalid llvm.getelementptr index #1 (must index into a struct or array): i32}}
    %a = llvm.getelementptr %p[0, 1] : (!llvm.ptr) -> !llvm.ptr, i32
    // expected-error @+1 {{Invalid llvm.getelementptr index #1 (must be a constant field number of !llvm.struct<(i32, f32)>): 2}}
    %b = llvm.getelementptr %p[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f32)>
    // expected-error @+1 {{Invalid llvm.getelementptr index #1 (must be a constant field number of !llvm.struct<(i32, f32)>): a value}}
    %c = llvm.getelementptr %p[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, f32)>
    llvm.return
  }
}

// -----

module {
  func.func @f(%a: i32) {
    // expected-error @+1 {{Invalid predicate of arith.cmpi (must be 0 to 9, one of eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge): 42 : i64}}
    %c = "arith.cmpi"(%a, %a) <{predicate = 42 : i64}> : (i32, i32) -> i1
    return
  }
}

// -----

module {
  // expected-error @+1 {{Invalid func.func (must have a non-empty string sym_name): none}}
  "func.func"() <{function_type = () -> (), x = "main"}> ({
    "func.return"() : () -> ()
  }) : () -> ()
  // expected-error @+1 {{Invalid gpu.binary (must have a non-empty string sym_name): 3 : i64}}
  "gpu.binary"() <{objects = [#gpu.object<#nvvm.target, "AB">], sym_name = 3}> : () -> ()
}

// -----

llvm.func @f() {
  // expected-error @+1 {{Invalid llvm.mlir.constant (must have a float value of its type f32): 2.500000e+00 : f64}}
  %f = llvm.mlir.constant(2.5 : f64) : f32
  llvm.return
}

// -----

// The generic form can leave a gpu.module's body out; kernel compilation read it anyway (an index out of
// bounds, an internal error).
module attributes {gpu.container_module} {
  // expected-error @+1 {{Invalid gpu.module (must have one region, its body): 0 regions}}
  "gpu.module"() {sym_name = "m", targets = [#nvvm.target]} : () -> ()
}
