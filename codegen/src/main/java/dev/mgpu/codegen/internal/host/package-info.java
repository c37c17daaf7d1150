/**
 * The translators that host code and kernels share (func, arith, cf and llvm ops), the memref ops of host code
 * with their descriptors, and the gpu ops of host code, which become calls of the {@code mgpu*} runtime on
 * streams that the async tokens stand for.
 */
package dev.mgpu.codegen.internal.host;
