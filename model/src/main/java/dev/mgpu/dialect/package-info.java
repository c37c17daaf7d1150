/**
 * The registry of the supported subset ({@link dev.mgpu.dialect.Dialects}: every op, dialect attribute and
 * dialect type by name) and the builders for Java code generators: {@link dev.mgpu.dialect.OpBuilder} appends
 * host ops (func, arith, cf, llvm, and the gpu ops that allocate, copy and launch), and {@link
 * dev.mgpu.dialect.KernelBuilder} the ops of kernel bodies, each checking what it is given before it builds.
 */
package dev.mgpu.dialect;
