package dev.mgpu.codegen;

import dev.mgpu.ir.Location;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * One kernel launch, as LLVM values ready for a handler: sizes already of the module's {@code intptr_t},
 * the dynamic shared memory an {@code i32} (null for 0), the stream null for a synchronous launch, and
 * {@code cluster} null without clusters. {@code args} are the kernel parameters in order.
 *
 * @param binary the name of the binary that holds the kernel
 * @param kernel the kernel's name
 * @param grid the grid size, x, y and z
 * @param block the block size, x, y and z
 * @param cluster the cluster size, x, y and z, or null without clusters
 * @param sharedMemory the dynamic shared memory size in bytes, an {@code i32}, or null for 0
 * @param stream the stream to launch on, or null for a synchronous launch
 * @param args the kernel arguments, in order
 * @param location where the launch is in the MLIR source
 */
public record KernelLaunch(String binary, String kernel, LLVMValueRef[] grid, LLVMValueRef[] block,
        LLVMValueRef[] cluster, LLVMValueRef sharedMemory, LLVMValueRef stream, List<LLVMValueRef> args,
        Location location) {
}
