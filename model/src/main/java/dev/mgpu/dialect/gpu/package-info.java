/**
 * The gpu dialect subset and the target attributes of nvvm, rocdl and the CPU: kernel modules and functions
 * ({@link dev.mgpu.dialect.gpu.GpuModuleOp}, {@link dev.mgpu.dialect.gpu.GpuFuncOp}), the ops of kernel bodies
 * (thread and block indices, lanes, barriers, shuffles, reductions, printf), the host ops that allocate, copy,
 * wait and launch, the binaries of compiled objects ({@link dev.mgpu.dialect.gpu.BinaryOp}, {@link
 * dev.mgpu.dialect.gpu.ObjectAttr}) and the offloading handlers that embed them, found through {@link
 * dev.mgpu.dialect.gpu.OffloadingHandler} providers.
 */
package dev.mgpu.dialect.gpu;
