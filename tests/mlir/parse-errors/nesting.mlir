// RUN: python3 -c "print('module {' * 10000 + '}' * 10000)" > %t.modules.mlir
// RUN: not gpu-translate %t.modules.mlir 2>&1 | FileCheck %s --check-prefix=MODULES
// RUN: python3 -c "print('gpu.binary @b [#gpu.object<#nvvm.target, properties = {a = ' + '[' * 100000 + ']' * 100000 + '}, \"x\">]')" > %t.arrays.mlir
// RUN: not gpu-translate %t.arrays.mlir 2>&1 | FileCheck %s --check-prefix=ARRAYS
// RUN: python3 -c "print('func.func @f(%a: ' + 'memref<' * 100000 + 'f32' + '>' * 100000 + ')')" > %t.types.mlir
// RUN: not gpu-translate %t.types.mlir 2>&1 | FileCheck %s --check-prefix=TYPES

// Nesting deeper than the parser's limit is a located error, never a stack overflow.

// MODULES: modules.mlir:1:{{[0-9]+}}: error: Invalid nesting (must be at most 500 levels deep): level 501
// ARRAYS: arrays.mlir:1:{{[0-9]+}}: error: Invalid nesting (must be at most 500 levels deep): level 501
// TYPES: types.mlir:1:{{[0-9]+}}: error: Invalid nesting (must be at most 500 levels deep): level 501
