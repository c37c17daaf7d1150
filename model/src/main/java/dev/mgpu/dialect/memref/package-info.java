/**
 * The memref dialect: element access and atomics ({@link dev.mgpu.dialect.memref.MemRef}), allocations on the
 * stack and globals ({@link dev.mgpu.dialect.memref.Allocations}), whole-buffer ops of host code ({@link
 * dev.mgpu.dialect.memref.Buffers}), and the ops that view the same memory as another shape or part of it
 * ({@link dev.mgpu.dialect.memref.Reshapes}, {@link dev.mgpu.dialect.memref.Views}).
 */
package dev.mgpu.dialect.memref;
