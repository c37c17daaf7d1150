/**
 * The translation pipeline, not for use outside this module: {@link dev.mgpu.codegen.internal.Pipeline}, the one
 * owner of the order of steps, the outlining of {@code gpu.launch} bodies into kernels, the compilation of each
 * {@code gpu.module} into a {@code gpu.binary}, the table of every op's translator, the C interfaces and entry
 * point of host functions, and {@link dev.mgpu.codegen.internal.DeviceTargets}, the one place that names each
 * target's class.
 */
package dev.mgpu.codegen.internal;
