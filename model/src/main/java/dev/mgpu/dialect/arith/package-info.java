/**
 * The arith dialect: constants, integer and float arithmetic ({@link dev.mgpu.dialect.arith.Arith}), the casts
 * between integers, indices and floats ({@link dev.mgpu.dialect.arith.Casts}), and the comparisons and select
 * ({@link dev.mgpu.dialect.arith.Comparisons}), each op a nested class with its syntax, verifier and a {@code
 * create} method.
 */
package dev.mgpu.dialect.arith;
