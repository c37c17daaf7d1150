package dev.mgpu.codegen;

import static org.bytedeco.llvm.global.LLVM.LLVMContextCreate;
import static org.bytedeco.llvm.global.LLVM.LLVMContextDispose;
import static org.bytedeco.llvm.global.LLVM.LLVMDisposeMessage;
import static org.bytedeco.llvm.global.LLVM.LLVMDisposeModule;
import static org.bytedeco.llvm.global.LLVM.LLVMModuleCreateWithNameInContext;
import static org.bytedeco.llvm.global.LLVM.LLVMPrintModuleToString;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;

/**
 * Owns one LLVM context and the module built in it, and disposes both exactly once. Use one per thread:
 * LLVM contexts are not thread-safe.
 */
public final class NativeModule implements AutoCloseable {
    private LLVMContextRef context;
    private LLVMModuleRef module;
    private final boolean owned;

    /**
     * Creates an empty module named {@code name} in a fresh context.
     *
     * @param name the module's identifier
     */
    public NativeModule(String name) {
        Llvm.load();
        context = LLVMContextCreate();
        module = LLVMModuleCreateWithNameInContext(name, context);
        owned = true;
    }

    private NativeModule(LLVMModuleRef module) {
        Llvm.load();
        this.module = module;
        this.context = org.bytedeco.llvm.global.LLVM.LLVMGetModuleContext(module);
        this.owned = false;
    }

    /**
     * A view of a module its caller owns and disposes: closing the view disposes nothing.
     *
     * @param module the module to view
     * @return a view that does not own {@code module}
     * @throws IllegalArgumentException if {@code module} is null
     */
    public static NativeModule borrow(LLVMModuleRef module) {
        if (module == null || module.isNull()) {
            throw new IllegalArgumentException("Invalid module (must not be null): null");
        }
        return new NativeModule(module);
    }

    /**
     * Returns the module's context.
     *
     * @return the context
     * @throws IllegalStateException if this module is closed
     */
    public LLVMContextRef context() {
        check();
        return context;
    }

    /**
     * Returns the module.
     *
     * @return the LLVM module
     * @throws IllegalStateException if this module is closed
     */
    public LLVMModuleRef module() {
        check();
        return module;
    }

    private void check() {
        if (module == null) {
            throw new IllegalStateException("NativeModule is closed");
        }
    }

    /**
     * The module as LLVM IR text.
     *
     * @return the IR text
     * @throws IllegalStateException if this module is closed
     */
    public String toIR() {
        return new String(toIRBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * The module as LLVM IR text, UTF-8 encoded, without a detour through a Java string.
     *
     * @return the IR text's UTF-8 bytes
     * @throws IllegalStateException if this module is closed
     */
    public byte[] toIRBytes() {
        BytePointer s = LLVMPrintModuleToString(module());
        try {
            return s.getStringBytes();
        } finally {
            LLVMDisposeMessage(s);
        }
    }

    @Override
    public void close() {
        if (!owned) {
            module = null;
            context = null;
            return;
        }
        if (module != null) {
            LLVMDisposeModule(module);
            module = null;
        }
        if (context != null) {
            LLVMContextDispose(context);
            context = null;
        }
    }
}
