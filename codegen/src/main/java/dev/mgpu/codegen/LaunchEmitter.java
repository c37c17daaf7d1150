package dev.mgpu.codegen;

import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.dialect.gpu.ObjectFormat;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.ir.Attribute;
import dev.mgpu.dialect.gpu.GpuTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * The pieces of a kernel launch that every offloading handler emits the same way: the embedded size and
 * JIT level of an object, module loading, the kernel-name constant, the argument array, the cached
 * kernel-handle getter, and the {@code mgpuLaunchKernel} call on its stream. A handler decides only where
 * its module comes from and when it is loaded.
 *
 * <p>Within one launch, call {@link #argumentArray} and {@link #kernelName} before getting the function
 * and launching it, so that every handler lays out its globals in the same order.
 */
public final class LaunchEmitter {
    private final HandlerContext ctx;

    /**
     * An emitter that builds at {@code ctx}'s builder.
     *
     * @param ctx the context whose module, builder and runtime declarations the emitter uses
     */
    public LaunchEmitter(HandlerContext ctx) {
        this.ctx = ctx;
    }

    /**
     * The name of the global holding a kernel's name.
     *
     * @param binary the name of the binary that holds the kernel
     * @param kernel the kernel's name
     * @return {@code <binary>_<kernel>_kernel_name}
     */
    public static String kernelNameGlobal(String binary, String kernel) {
        return binary + "_" + kernel + "_kernel_name";
    }

    /**
     * Whether an object's embedded blob ends in an added NUL: PTX does, because the driver's JIT needs one.
     *
     * @param o the object
     * @return true for an assembly (PTX) object
     */
    public static boolean appendsNul(ObjectAttr o) {
        return o.format() == ObjectFormat.ASSEMBLY;
    }

    /**
     * The size in bytes of an object's embedded blob, its added NUL included.
     *
     * @param o the object
     * @return the blob's length, plus one for an added NUL
     */
    public static long embeddedSize(ObjectAttr o) {
        return o.object().length() + (appendsNul(o) ? 1 : 0);
    }

    /**
     * The JIT optimisation level of an assembly object (its {@code O} property, else its target's), or -1
     * for an object the driver loads as it is.
     *
     * @param o the object
     * @return the level from the {@code O} property, else the target's, else 2; -1 for a non-assembly object
     */
    public static int jitLevel(ObjectAttr o) {
        if (!appendsNul(o)) {
            return -1;
        }
        if (o.properties() != null && o.properties().get("O") instanceof Attribute.IntegerAttr i) {
            return (int) i.value();
        }
        return o.target() instanceof GpuTarget t ? t.optLevel() : 2;
    }

    /**
     * Builds {@code mgpuModuleLoad(blob, size)}, or {@code mgpuModuleLoadJIT(blob, O, size)} for PTX, with
     * {@code b}; {@code blob} is the global that embeds {@code o}.
     *
     * @param b the builder to build the call with
     * @param blob the global that embeds {@code o}
     * @param o the object whose blob is loaded
     * @return the call, which yields the module handle
     */
    public LLVMValueRef loadModule(LLVMBuilderRef b, LLVMValueRef blob, ObjectAttr o) {
        LLVMValueRef size = ctx.intptr(embeddedSize(o));
        if (appendsNul(o)) {
            return ctx.runtime().call(b, "mgpuModuleLoadJIT", blob, ctx.i32(jitLevel(o)), size);
        }
        return ctx.runtime().call(b, "mgpuModuleLoad", blob, size);
    }

    /**
     * The constant C string naming {@code kernel}, shared by every launch of it.
     *
     * @param binary the name of the binary that holds the kernel
     * @param kernel the kernel's name
     * @return the existing or new global
     */
    public LLVMValueRef kernelName(String binary, String kernel) {
        return ctx.cString(kernelNameGlobal(binary, kernel), kernel);
    }

    /**
     * Stores the arguments into the function's argument struct for this signature and returns the array
     * of pointers to its fields (see {@link HandlerContext#launchArgs}).
     *
     * @param args the kernel arguments, in order
     * @return the array of pointers to the argument struct's fields
     * @throws IllegalStateException if the builder is not positioned in a basic block of a function
     */
    public LLVMValueRef argumentArray(List<LLVMValueRef> args) {
        LLVMBuilderRef b = ctx.builder();
        LLVMTypeRef[] fields = new LLVMTypeRef[args.size()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = LLVMTypeOf(args.get(i));
        }
        LLVMTypeRef st = ctx.structType(fields);
        HandlerContext.LaunchArgs a = ctx.launchArgs(st, fields.length);
        for (int i = 0; i < fields.length; i++) {
            LLVMBuildStore(b, args.get(i), a.fields().get(i));
        }
        return a.pointers();
    }

    /**
     * Calls the kernel's handle getter: an internal, always-inline function {@code <binary>_<kernel>_get}
     * that reads the handle's cache slot with acquire ordering and, only while it is still null, calls the
     * runtime entry that loads the module once per device and fills the slot. One getter serves every
     * launch of the kernel, so a launch costs one call in the IR. The entry is called as
     * {@code entry(moduleCache, objectArgs..., name, slot)}.
     *
     * @param binary the name of the binary that holds the kernel
     * @param kernel the kernel's name
     * @param name the constant naming the kernel (see {@link #kernelName})
     * @param entry the name of the runtime function that loads the module and looks the kernel up
     * @param objectArgs the arguments the entry takes between the module cache and the name
     * @return the call to the getter, which yields the kernel handle
     */
    public LLVMValueRef cachedFunction(String binary, String kernel, LLVMValueRef name, String entry,
            LLVMValueRef... objectArgs) {
        String getterName = binary + "_" + kernel + "_get";
        LLVMTypeRef getterType = LLVMFunctionType(ctx.ptr(), (PointerPointer<?>) null, 0, 0);
        LLVMValueRef getter = ctx.function(getterName);
        if (getter == null) {
            getter = ctx.internalFunction(getterName, getterType);
            LLVMAddAttributeAtIndex(getter, LLVMAttributeFunctionIndex, ctx.enumAttribute("alwaysinline"));
            LLVMAddAttributeAtIndex(getter, LLVMAttributeFunctionIndex, ctx.enumAttribute("nounwind"));
            LLVMValueRef cache = ctx.zeroGlobal(binary + "_module_cache", ctx.ptr(), 8);
            LLVMValueRef slot = ctx.zeroGlobal(binary + "_" + kernel + "_function", ctx.ptr(), 8);
            try (NativeBuilder owner = new NativeBuilder(ctx.context())) {
                LLVMBuilderRef b = owner.get();
                LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(ctx.context(), getter, "entry");
                LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(ctx.context(), getter, "load");
                LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(ctx.context(), getter, "cached");
                LLVMPositionBuilderAtEnd(b, start);
                LLVMValueRef cached = LLVMBuildLoad2(b, ctx.ptr(), slot, "");
                LLVMSetOrdering(cached, LLVMAtomicOrderingAcquire);
                LLVMSetAlignment(cached, 8);
                LLVMValueRef isNull = LLVMBuildICmp(b, LLVMIntEQ, cached, ctx.nullPtr(), "");
                ctx.setUnlikely(LLVMBuildCondBr(b, isNull, slow, done));
                LLVMPositionBuilderAtEnd(b, done);
                LLVMBuildRet(b, cached);
                LLVMPositionBuilderAtEnd(b, slow);
                LLVMValueRef[] args = new LLVMValueRef[objectArgs.length + 3];
                args[0] = cache;
                System.arraycopy(objectArgs, 0, args, 1, objectArgs.length);
                args[args.length - 2] = name;
                args[args.length - 1] = slot;
                LLVMValueRef loaded = ctx.runtime().call(b, entry, args);
                LLVMBuildRet(b, loaded);
            }
        }
        return LLVMBuildCall2(ctx.builder(), getterType, getter, (PointerPointer<?>) null, 0, "");
    }

    /**
     * The name of a kernel's launch stubs; a second shape of the same kernel gets LLVM's {@code .1}, ...
     *
     * @param binary the name of the binary that holds the kernel
     * @param kernel the kernel's name
     * @return {@code <binary>_<kernel>_launch}
     */
    public static String stubName(String binary, String kernel) {
        return binary + "_" + kernel + "_launch";
    }

    /**
     * Emits a launch as one call to a launch stub: an internal function per kernel and launch shape whose
     * body {@code body} builds, once, from a launch made of the stub's parameters. A launch's shape is its
     * kernel, the types of its kernel arguments, whether it has a stream, and its grid, block, cluster and
     * shared-memory operands, each of them either a constant (built into the stub) or a value known only
     * at run time (a parameter of the stub, as the stream and the kernel arguments always are). So the
     * slot check, the argument array and the runtime calls are emitted once per shape instead of once per
     * launch, and LLVM's code generation costs one call per launch. The stubs carry no inlining
     * attribute: an optimising consumer inlines them where that pays off. A kernel that the module
     * launches from one site only ({@link HandlerContext#expectLaunchSites}) has nothing to share: it is
     * launched in place, as its stub would have launched it.
     *
     * <p>While {@code body} runs, {@link HandlerContext#builder()} builds in the stub.
     *
     * @param l the launch
     * @param body builds the launch from the launch it is given, with the builder it then finds in the context
     * @throws IllegalStateException if the builder is not positioned in a basic block of a function
     * @throws IllegalArgumentException if the launch has no grid or block, a group of other than 3 sizes, a
     *         size that is not an {@code intptr_t}, a shared-memory size or stream of the wrong type, or a
     *         null kernel argument
     */
    public void throughStub(KernelLaunch l, Consumer<KernelLaunch> body) {
        check(l);
        if (ctx.launchSites(l.binary(), l.kernel()) == 1) {
            body.accept(l);
            return;
        }
        List<Object> shape = new ArrayList<>();
        shape.add(l.binary());
        shape.add(l.kernel());
        List<LLVMValueRef> actuals = new ArrayList<>();
        List<LLVMTypeRef> types = new ArrayList<>();
        java.util.Map<Long, Integer> seen = new java.util.HashMap<>();
        Operand[] dims = new Operand[10];
        int slot = 0;
        for (LLVMValueRef[] group : new LLVMValueRef[][] {l.grid(), l.block(), l.cluster()}) {
            shape.add(group == null ? "none" : "dims");
            for (int i = 0; i < 3; i++, slot++) {
                dims[slot] = group == null ? null : operand(group[i], shape, actuals, types, seen);
            }
        }
        dims[9] = l.sharedMemory() == null ? null : operand(l.sharedMemory(), shape, actuals, types, seen);
        shape.add(l.sharedMemory() == null ? "no-smem" : "smem");
        shape.add(l.stream() == null ? "sync" : "stream");
        int streamIndex = l.stream() == null ? -1 : parameter(l.stream(), shape, actuals, types, seen);
        int[] argIndex = new int[l.args().size()];
        for (int i = 0; i < argIndex.length; i++) {
            argIndex[i] = parameter(l.args().get(i), shape, actuals, types, seen);
        }
        LLVMTypeRef fnType;
        try (PointerPointer<LLVMTypeRef> p = new PointerPointer<>(types.toArray(new LLVMTypeRef[0]))) {
            fnType = LLVMFunctionType(LLVMVoidTypeInContext(ctx.context()), p, types.size(), 0);
        }
        LLVMValueRef stub = ctx.launchStubs.get(shape);
        if (stub == null) {
            stub = LLVMAddFunction(ctx.module(), stubName(l.binary(), l.kernel()), fnType);
            LLVMSetLinkage(stub, LLVMInternalLinkage);
            ctx.launchStubs.put(shape, stub);
            LLVMValueRef[] params = new LLVMValueRef[types.size()];
            for (int i = 0; i < params.length; i++) {
                params[i] = LLVMGetParam(stub, i);
            }
            LLVMValueRef[] inner = new LLVMValueRef[10];
            for (int i = 0; i < 10; i++) {
                inner[i] = dims[i] == null ? null : dims[i].in(params);
            }
            KernelLaunch in = new KernelLaunch(l.binary(), l.kernel(),
                    l.grid() == null ? null : new LLVMValueRef[] {inner[0], inner[1], inner[2]},
                    l.block() == null ? null : new LLVMValueRef[] {inner[3], inner[4], inner[5]},
                    l.cluster() == null ? null : new LLVMValueRef[] {inner[6], inner[7], inner[8]}, inner[9],
                    streamIndex < 0 ? null : params[streamIndex],
                    argumentsIn(params, argIndex), l.location());
            try (NativeBuilder owner = new NativeBuilder(ctx.context())) {
                LLVMBuilderRef b = owner.get();
                LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx.context(), stub, "entry"));
                ctx.buildWith(b, () -> body.accept(in));
                LLVMBuildRetVoid(b);
            }
        }
        try (PointerPointer<LLVMValueRef> p = new PointerPointer<>(actuals.toArray(new LLVMValueRef[0]))) {
            LLVMBuildCall2(ctx.builder(), fnType, stub, p, actuals.size(), "");
        }
    }

    /**
     * Checks in Java what LLVM would otherwise take as invalid IR, or crash on: the builder's position, and
     * the types of the launch's values (sizes {@code intptr_t}, shared memory {@code i32}, the stream a
     * pointer).
     */
    private void check(KernelLaunch l) {
        ctx.currentFunction();
        if (l.grid() == null || l.block() == null) {
            throw new IllegalArgumentException("Invalid launch of " + l.kernel() + " (must have grid and block"
                    + " sizes): " + (l.grid() == null ? "no grid" : "no block"));
        }
        LLVMTypeRef intptr = ctx.runtime().intptrType();
        String[] groups = {"grid", "block", "cluster"};
        LLVMValueRef[][] values = {l.grid(), l.block(), l.cluster()};
        for (int g = 0; g < 3; g++) {
            if (values[g] == null) {
                continue;
            }
            if (values[g].length != 3) {
                throw new IllegalArgumentException("Invalid " + groups[g] + " of " + l.kernel()
                        + " (must be 3 sizes): " + values[g].length);
            }
            for (int i = 0; i < 3; i++) {
                LLVMValueRef v = values[g][i];
                if (v == null || v.isNull() || !LLVMTypeOf(v).equals(intptr)) {
                    throw new IllegalArgumentException("Invalid " + groups[g] + " size " + "xyz".charAt(i) + " of "
                            + l.kernel() + " (must be an intptr_t value, " + dev.mgpu.codegen.internal.llvm.LlvmText.type(intptr) + "): "
                            + (v == null || v.isNull() ? "null" : dev.mgpu.codegen.internal.llvm.LlvmText.type(LLVMTypeOf(v))));
                }
            }
        }
        if (l.sharedMemory() != null && !LLVMTypeOf(l.sharedMemory()).equals(ctx.runtime().i32Type())) {
            throw new IllegalArgumentException("Invalid shared memory size of " + l.kernel() + " (must be an i32"
                    + " value): " + dev.mgpu.codegen.internal.llvm.LlvmText.type(LLVMTypeOf(l.sharedMemory())));
        }
        if (l.stream() != null && !LLVMTypeOf(l.stream()).equals(ctx.ptr())) {
            throw new IllegalArgumentException("Invalid stream of " + l.kernel() + " (must be a ptr value): "
                    + dev.mgpu.codegen.internal.llvm.LlvmText.type(LLVMTypeOf(l.stream())));
        }
        for (LLVMValueRef a : l.args()) {
            if (a == null || a.isNull()) {
                throw new IllegalArgumentException("Invalid argument of " + l.kernel() + " (must be a value): null");
            }
        }
    }

    /**
     * A launch operand inside a stub: a constant, or the stub's parameter at {@code index}.
     *
     * @param constant the constant, or null for a parameter
     * @param index the index of the stub's parameter, or -1 for a constant
     */
    private record Operand(LLVMValueRef constant, int index) {
        LLVMValueRef in(LLVMValueRef[] params) {
            return constant != null ? constant : params[index];
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Operand other && Objects.equals(constant, other.constant) && index == other.index;
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hashCode(constant) + index;
        }
    }

    private static List<LLVMValueRef> argumentsIn(LLVMValueRef[] params, int[] argIndex) {
        List<LLVMValueRef> args = new ArrayList<>(argIndex.length);
        for (int i : argIndex) {
            args.add(params[i]);
        }
        return args;
    }

    /** A launch dimension: built into the stub when constant (LLVM uniques constants), else a parameter. */
    private static Operand operand(LLVMValueRef v, List<Object> shape, List<LLVMValueRef> actuals,
            List<LLVMTypeRef> types, java.util.Map<Long, Integer> seen) {
        if (LLVMIsConstant(v) != 0) {
            shape.add(new Constant(v.address()));
            return new Operand(v, -1);
        }
        return new Operand(null, parameter(v, shape, actuals, types, seen));
    }

    /**
     * A constant in a launch's shape.
     *
     * @param address the constant's native address, which LLVM keeps unique per value
     */
    private record Constant(long address) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Constant other && address == other.address;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(address);
        }
    }

    /**
     * A new stub parameter in a launch's shape.
     *
     * @param type the native address of the parameter's type
     */
    private record Parameter(long type) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Parameter other && type == other.type;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(type);
        }
    }

    /**
     * A value passed again in a launch's shape.
     *
     * @param index the index of the stub parameter that passes it already
     */
    private record Repeat(int index) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Repeat other && index == other.index;
        }

        @Override
        public int hashCode() {
            return index;
        }
    }

    /**
     * The index of the stub parameter that passes {@code v}: a value passed already is passed once, so a
     * launch of {@code (%n, %n, %n)} or of one pointer twice costs one register, not several. {@code seen}
     * maps values to their parameters, so a launch of N arguments costs O(N).
     */
    private static int parameter(LLVMValueRef v, List<Object> shape, List<LLVMValueRef> actuals,
            List<LLVMTypeRef> types, java.util.Map<Long, Integer> seen) {
        Integer known = seen.get(v.address());
        if (known != null) {
            shape.add(new Repeat(known));
            return known;
        }
        LLVMTypeRef t = LLVMTypeOf(v);
        shape.add(new Parameter(t.address()));
        actuals.add(v);
        types.add(t);
        seen.put(v.address(), actuals.size() - 1);
        return actuals.size() - 1;
    }

    /**
     * Launches {@code fn} on the launch's stream. A synchronous launch uses the default (null) stream and
     * synchronises it, so no stream is created.
     *
     * @param l the launch
     * @param fn the kernel handle
     * @param params the array of pointers to the kernel arguments (see {@link #argumentArray})
     */
    public void launch(KernelLaunch l, LLVMValueRef fn, LLVMValueRef params) {
        LLVMValueRef stream = l.stream() != null ? l.stream() : ctx.nullPtr();
        launchCall(l, fn, stream, params);
        if (l.stream() == null) {
            ctx.runtime().call(ctx.builder(), "mgpuStreamSynchronize", stream);
        }
    }

    /**
     * Launches {@code fn} on the launch's stream, or, for a synchronous launch, on a stream made for it and
     * synchronised and destroyed after it, as the source documents do.
     *
     * @param l the launch
     * @param fn the kernel handle
     * @param params the array of pointers to the kernel arguments (see {@link #argumentArray})
     */
    public void launchOnOwnStream(KernelLaunch l, LLVMValueRef fn, LLVMValueRef params) {
        LLVMBuilderRef b = ctx.builder();
        LLVMValueRef stream = l.stream() != null ? l.stream() : ctx.runtime().call(b, "mgpuStreamCreate");
        launchCall(l, fn, stream, params);
        if (l.stream() == null) {
            ctx.runtime().call(b, "mgpuStreamSynchronize", stream);
            ctx.runtime().call(b, "mgpuStreamDestroy", stream);
        }
    }

    private void launchCall(KernelLaunch l, LLVMValueRef fn, LLVMValueRef stream, LLVMValueRef params) {
        LLVMValueRef smem = l.sharedMemory() != null ? l.sharedMemory() : ctx.i32(0);
        LLVMValueRef count = ctx.intptr(l.args().size());
        if (l.cluster() != null) {
            ctx.runtime().call(ctx.builder(), "mgpuLaunchClusterKernel", fn, l.cluster()[0], l.cluster()[1],
                    l.cluster()[2], l.grid()[0], l.grid()[1], l.grid()[2], l.block()[0], l.block()[1], l.block()[2],
                    smem, stream, params, ctx.nullPtr(), count);
        } else {
            ctx.runtime().call(ctx.builder(), "mgpuLaunchKernel", fn, l.grid()[0], l.grid()[1], l.grid()[2],
                    l.block()[0], l.block()[1], l.block()[2], smem, stream, params, ctx.nullPtr(), count);
        }
    }
}
