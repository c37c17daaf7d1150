/**
 * The llvm dialect subset: functions and calls, constants, integer and float arithmetic and casts, memory
 * (alloca, load, store, getelementptr), the ops that upstream's kernel lowerings write, and the attributes of
 * linkage, calling conventions and debug information.
 */
package dev.mgpu.dialect.llvm;
