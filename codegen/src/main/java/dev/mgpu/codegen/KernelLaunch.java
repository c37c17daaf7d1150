package dev.mgpu.codegen;

import dev.mgpu.ir.Location;
import java.util.List;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * One kernel launch, as LLVM values ready for a handler: sizes already of the module's {@code intptr_t},
 * the dynamic shared memory an {@code i32} (null for 0), the stream null for a synchronous launch, and
 * {@code cluster} null without clusters. {@code args} are the kernel parameters in order.
 */
public record KernelLaunch(String binary, String kernel, LLVMValueRef[] grid, LLVMValueRef[] block,
        LLVMValueRef[] cluster, LLVMValueRef sharedMemory, LLVMValueRef stream, List<LLVMValueRef> args,
        Location location) {
}
