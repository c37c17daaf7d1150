package dev.mgpu.codegen;

import static org.bytedeco.llvm.global.LLVM.LLVMAddFunction;
import static org.bytedeco.llvm.global.LLVM.LLVMBuildCall2;
import static org.bytedeco.llvm.global.LLVM.LLVMFunctionType;
import static org.bytedeco.llvm.global.LLVM.LLVMGetNamedFunction;
import static org.bytedeco.llvm.global.LLVM.LLVMInt16TypeInContext;
import static org.bytedeco.llvm.global.LLVM.LLVMInt32TypeInContext;
import static org.bytedeco.llvm.global.LLVM.LLVMInt64TypeInContext;
import static org.bytedeco.llvm.global.LLVM.LLVMInt8TypeInContext;
import static org.bytedeco.llvm.global.LLVM.LLVMPointerTypeInContext;
import static org.bytedeco.llvm.global.LLVM.LLVMVoidTypeInContext;

import java.util.HashMap;
import java.util.Map;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Declares and calls the {@code mgpu*} runtime functions of {@code runtime-c/include/mgpu.h} in one LLVM
 * module. Signatures follow the header exactly; {@code intptr_t} and {@code size_t} are {@code intptrType}.
 */
public final class RuntimeCalls {
    private final LLVMModuleRef module;
    private final LLVMContextRef ctx;
    private final LLVMTypeRef ptr;
    private final LLVMTypeRef voidTy;
    private final LLVMTypeRef i8;
    private final LLVMTypeRef i32;
    private final LLVMTypeRef i64;
    private final LLVMTypeRef intptr;
    private final Map<String, LLVMTypeRef> types = new HashMap<>();

    /**
     * Declares the runtime's functions for {@code module}; a function is added to the module on first use.
     *
     * @param module the module the calls go in
     * @param ctx the module's context
     * @param intptrType the integer type as wide as the target's pointers
     */
    public RuntimeCalls(LLVMModuleRef module, LLVMContextRef ctx, LLVMTypeRef intptrType) {
        this.module = module;
        this.ctx = ctx;
        this.ptr = LLVMPointerTypeInContext(ctx, 0);
        this.voidTy = LLVMVoidTypeInContext(ctx);
        this.i8 = LLVMInt8TypeInContext(ctx);
        this.i32 = LLVMInt32TypeInContext(ctx);
        this.i64 = LLVMInt64TypeInContext(ctx);
        this.intptr = intptrType;
        LLVMTypeRef ip = intptr;
        sig("mgpuModuleLoad", ptr, ptr, ip);
        sig("mgpuModuleLoadJIT", ptr, ptr, i32, ip);
        sig("mgpuModuleUnload", voidTy, ptr);
        sig("mgpuModuleGetFunction", ptr, ptr, ptr);
        sig("mgpuModuleGetFunctionLazy", ptr, ptr, ptr, ip, i32, ptr, ptr);
        sig("mgpuModuleGetFunctionSelect", ptr, ptr, ptr, ptr, ptr);
        sig("mgpuLaunchKernel", voidTy, ptr, ip, ip, ip, ip, ip, ip, i32, ptr, ptr, ptr, ip);
        sig("mgpuLaunchClusterKernel", voidTy, ptr, ip, ip, ip, ip, ip, ip, ip, ip, ip, i32, ptr, ptr, ptr, ip);
        sig("mgpuStreamCreate", ptr);
        sig("mgpuStreamDestroy", voidTy, ptr);
        sig("mgpuStreamSynchronize", voidTy, ptr);
        sig("mgpuStreamWaitEvent", voidTy, ptr, ptr);
        sig("mgpuEventCreate", ptr);
        sig("mgpuEventDestroy", voidTy, ptr);
        sig("mgpuEventSynchronize", voidTy, ptr);
        sig("mgpuEventRecord", voidTy, ptr, ptr);
        sig("mgpuMemAlloc", ptr, i64, ptr, i8);
        sig("mgpuMemFree", voidTy, ptr, ptr);
        sig("mgpuMemcpy", voidTy, ptr, ptr, ip, ptr);
        sig("mgpuMemset32", voidTy, ptr, i32, ip, ptr);
        sig("mgpuMemset16", voidTy, ptr, LLVMInt16TypeInContext(ctx), ip, ptr);
        sig("mgpuMemHostRegisterMemRef", voidTy, i64, ptr, i64);
        sig("mgpuMemHostUnregisterMemRef", voidTy, i64, ptr, i64);
        sig("mgpuSetDefaultDevice", voidTy, i32);
    }

    private void sig(String name, LLVMTypeRef ret, LLVMTypeRef... params) {
        try (PointerPointer<LLVMTypeRef> pp = new PointerPointer<>(params)) {
            types.put(name, LLVMFunctionType(ret, pp, params.length, 0));
        }
    }

    /**
     * The names of every runtime function this generator may call.
     *
     * @return the function names
     */
    public java.util.Set<String> names() {
        return java.util.Collections.unmodifiableSet(types.keySet());
    }

    /**
     * The function type of a runtime function.
     *
     * @param name the function's name
     * @return its LLVM function type
     * @throws IllegalArgumentException if {@code mgpu.h} declares no such function
     */
    public LLVMTypeRef type(String name) {
        LLVMTypeRef t = types.get(name);
        if (t == null) {
            throw new IllegalArgumentException("Invalid runtime function (must be declared in mgpu.h): " + name);
        }
        return t;
    }

    /**
     * The declaration of a runtime function, added to the module on first use.
     *
     * @param name the function's name
     * @return the function
     * @throws IllegalArgumentException if {@code mgpu.h} declares no such function
     */
    public LLVMValueRef function(String name) {
        LLVMValueRef f = LLVMGetNamedFunction(module, name);
        return f != null && !f.isNull() ? f : LLVMAddFunction(module, name, type(name));
    }

    private final PointerPointer<LLVMValueRef> argBuffer = new PointerPointer<>(32);
    private final Map<String, LLVMValueRef> declared = new HashMap<>();

    /**
     * Builds {@code name(args)} at the builder's position.
     *
     * @param b the builder
     * @param name the function's name
     * @param args the arguments
     * @return the call
     * @throws IllegalArgumentException if {@code mgpu.h} declares no such function
     */
    public LLVMValueRef call(LLVMBuilderRef b, String name, LLVMValueRef... args) {
        LLVMTypeRef t = type(name);
        LLVMValueRef f = declared.get(name);
        if (f == null) {
            f = function(name);
            declared.put(name, f);
        }
        for (int i = 0; i < args.length; i++) {
            argBuffer.put(i, args[i]);
        }
        return LLVMBuildCall2(b, t, f, argBuffer, args.length, "");
    }

    /**
     * Returns the opaque pointer type.
     *
     * @return {@code ptr}
     */
    public LLVMTypeRef ptrType() {
        return ptr;
    }

    /**
     * Returns the integer type as wide as the target's pointers.
     *
     * @return {@code intptr_t}'s type
     */
    public LLVMTypeRef intptrType() {
        return intptr;
    }

    /**
     * Returns the 32-bit integer type.
     *
     * @return {@code i32}
     */
    public LLVMTypeRef i32Type() {
        return i32;
    }

    /**
     * Returns the 64-bit integer type.
     *
     * @return {@code i64}
     */
    public LLVMTypeRef i64Type() {
        return i64;
    }

    /**
     * Returns the 8-bit integer type.
     *
     * @return {@code i8}
     */
    public LLVMTypeRef i8Type() {
        return i8;
    }

    /**
     * Returns the context the types belong to.
     *
     * @return the context
     */
    public LLVMContextRef context() {
        return ctx;
    }
}
