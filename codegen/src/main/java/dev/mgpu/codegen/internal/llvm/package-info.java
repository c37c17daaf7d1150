/**
 * LLVM's plumbing: target machines and the CPUs and features each target knows, object and assembly emission, IR
 * text written as LLVM's printer writes it, and the external programs that finish objects (the artifact's {@code
 * llc} and {@code lld}, {@code ptxas}, {@code fatbinary}, {@code cc}).
 */
package dev.mgpu.codegen.internal.llvm;
