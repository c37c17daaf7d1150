package dev.mgpu.codegen;

import dev.mgpu.dialect.gpu.OffloadingHandler;

/**
 * An offloading handler that translates to LLVM. Register an implementation in
 * {@code META-INF/services/dev.mgpu.dialect.gpu.OffloadingHandler}; its {@link #name()} is then accepted as
 * {@code #name<...>} on {@code gpu.binary}. Java code generators may also call a handler directly on their
 * own module and builder through a {@link HandlerContext}.
 *
 * <p>Call order: {@link #embedBinary} once per binary, before any {@link #launchKernel} of its kernels.
 */
public interface LLVMOffloadingHandler extends OffloadingHandler {
    /**
     * Adds the binary's globals (blobs, tables, caches) to the module.
     *
     * @param binary the {@code gpu.binary} to embed
     * @param ctx the module being translated and its helpers
     */
    void embedBinary(BinaryDescription binary, HandlerContext ctx);

    /**
     * Emits, at the builder's position, the code that launches one kernel of {@code binary}.
     *
     * @param launch the launch to emit
     * @param binary the binary that holds the kernel
     * @param ctx the module being translated and its helpers
     */
    void launchKernel(KernelLaunch launch, BinaryDescription binary, HandlerContext ctx);
}
