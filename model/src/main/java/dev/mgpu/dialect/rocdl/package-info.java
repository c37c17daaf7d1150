/**
 * The rocdl dialect ops that upstream's {@code convert-gpu-to-rocdl} writes into kernels: the work-item and
 * work-group indices and sizes, {@code rocdl.barrier}, and the {@code mbcnt} and {@code ds_bpermute} ops with
 * which lowered shuffles find and read lanes, so that kernels lowered that far are read and compiled as they
 * are, for {@code #rocdl.target} only.
 */
package dev.mgpu.dialect.rocdl;
