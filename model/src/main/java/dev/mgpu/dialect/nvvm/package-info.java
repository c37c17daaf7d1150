/**
 * The nvvm dialect ops that upstream's {@code convert-gpu-to-nvvm} writes into kernels: the special registers
 * ({@code nvvm.read.ptx.sreg.*}), {@code nvvm.barrier0} and {@code nvvm.shfl.sync}, so that kernels lowered that
 * far are read and compiled as they are, for {@code #nvvm.target} only.
 */
package dev.mgpu.dialect.nvvm;
