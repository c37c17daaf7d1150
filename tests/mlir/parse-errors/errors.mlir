// RUN: not gpu-translate --split-input-file --emit=mlir %s 2>&1 | FileCheck %s

// Each part has one syntax error; every part is reported with its file:line:col.

module {
  gpu.binary @b [#gpu.object<#nvvm.target, "bad \q escape">]
}
// CHECK: errors.mlir:[[@LINE-2]]:49: error: Invalid escape (must be \\, \", \n, \t or \XX): \q
// CHECK-NEXT: gpu.binary @b [#gpu.object<#nvvm.target, "bad \q escape">]
// CHECK-NEXT: {{^}}                                                ^{{$}}

// -----

module {
  gpu.binary @b [#gpu.object<#nvvm.target, "half \4">]
}
// CHECK: errors.mlir:[[@LINE-2]]:50: error: Invalid escape (must be \\, \", \n, \t or \XX): \4{{$}}

// -----

module {
  gpu.binary @b [#gpu.object<#foo.target, "">]
}
// CHECK: errors.mlir:[[@LINE-2]]:30: error: Invalid attribute (must be a known attribute or alias): #foo.target

// -----

module {
  gpu.binary @b [#gpu.object<#nvvm.target<chip = "sm_90", speed = 3>, "">]
}
// CHECK: errors.mlir:[[@LINE-2]]:59: error: Invalid parameter of #nvvm.target (must be one of O, triple, chip, features, flags, link): speed

// -----

module {
  func.func @f(%a: i32) {
    %b = arith.addi (%a, %a : i32
    return
  }
}
// CHECK: errors.mlir:[[@LINE-4]]:21: error: Invalid operands of arith.addi (must be two): 0

// -----

module {
  gpu.binary @b [#gpu.object<#nvvm.target, "">]]
}
// CHECK: errors.mlir:[[@LINE-2]]:48: error: Invalid syntax (must be an operation): ']'

// -----

module {
  func.func @f() {
    return %nope : i32
  }
}
// CHECK: errors.mlir:[[@LINE-3]]:12: error: Invalid use of %nope (must be defined): undefined value

// -----

module {
  func.func @f(%a: i32) {
    %b = arith.addi %a, %a : i64
    return
  }
}
// CHECK: errors.mlir:[[@LINE-4]]:21: error: Invalid use of %a (must have its defined type i32): i64

// -----

module {
  func.func @f() {
    cf.br ^missing
  }
}
// CHECK: errors.mlir:[[@LINE-3]]:11: error: Invalid successor (must name a block of its region): ^missing

// -----

module {
  func.func @f() -> !foo.bar
}
// CHECK: errors.mlir:[[@LINE-2]]:21: error: Invalid type (must be a known type or alias): !foo.bar

// -----

module {
  foo.bar @x
}
// CHECK: errors.mlir:[[@LINE-2]]:3: error: Invalid operation (must be a registered op or in generic form): foo.bar

// -----

module {
  func.func @f(%a: i32) {
    %a = arith.addi %a, %a : i32
    return
  }
}
// CHECK: errors.mlir:[[@LINE-4]]:5: error: Invalid value name (must be defined once): %a

// -----

module {
  gpu.binary @b [#gpu.object<#nvvm.target, format = "x">]
}
// CHECK: errors.mlir:[[@LINE-2]]:44: error: Invalid #gpu.object format (must be offload, assembly, bin or fatbin): format

// -----

module {
  gpu.binary @b [#gpu.object<#nvvm.target, "abc
  ">]
}
// CHECK: errors.mlir:[[@LINE-3]]:44: error: Invalid string (must end with '"' on its line): end of line

// -----

module {
  func.func private @f(i16777216)
}
// CHECK: errors.mlir:[[@LINE-2]]:24: error: Invalid type (must be a known type): i16777216

// -----

func.func @f() {
  return
}
{-#
  dialect_resources: {
// CHECK: errors.mlir:[[@LINE-2]]:1: error: Invalid resource section (must end with #-}): end of input

// -----

// An unranked tensor is refused where it is written (it once reached a cast to a ranked type).
func.func @f(%u: tensor<*xf32>) {
  return
}
// CHECK: errors.mlir:[[@LINE-3]]:24: error: Invalid tensor type (must be ranked, tensor<4x?xT>): tensor<*xf32>

// -----

// A result number is decimal digits alone: #-1 once reached the list of results as index -1.
func.func @f() {
  %t = gpu.wait async
  %u = gpu.wait async [%t#-1]
  return
}
// CHECK: errors.mlir:[[@LINE-3]]:26: error: Invalid result number (must be decimal digits): #-1
