package dev.mgpu.codegen;

import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.ir.Attribute;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import java.util.ArrayList;
import java.util.List;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMBuilderRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * What an offloading handler works with: the LLVM module and builder, the runtime declarations, the load
 * strategy, and helpers for globals. A Java code generator can make one over its own module and builder;
 * it must then close it (or call {@link #finish()}) after the last handler call, to write the constructor
 * tables: use it in a try-with-resources block. Misuse is an exception in Java, never a crash in LLVM: a
 * builder that is not positioned in a function, launch sizes that are not {@code intptr_t}, a constructor
 * added after finishing, a binary embedded twice.
 */
public final class HandlerContext implements AutoCloseable {
    private final LLVMModuleRef module;
    private final LLVMContextRef ctx;
    private LLVMBuilderRef builder;
    private final RuntimeCalls runtime;
    private final LoadStrategy strategy;
    private final List<LLVMValueRef> ctors = new ArrayList<>();
    private final List<LLVMValueRef> dtors = new ArrayList<>();

    private boolean finished;
    /** The launch argument structs of each function, and the allocas of its entry block. */
    private final LaunchScratch scratch;

    /**
     * A context over {@code module} and {@code builder}. The width of {@code intptr_t} comes from the module's
     * data layout, or is 64 bits when the module has none.
     *
     * @param module the module handlers add globals, functions and constructors to
     * @param builder the builder handlers build launches and loads with
     * @param strategy how handlers load and unload device binaries
     * @throws IllegalArgumentException if the module or the builder is null or a null reference, or the
     *         strategy is null
     */
    public HandlerContext(LLVMModuleRef module, LLVMBuilderRef builder, LoadStrategy strategy) {
        if (module == null || module.isNull() || builder == null || builder.isNull() || strategy == null) {
            throw new IllegalArgumentException("Invalid handler context (must have a module, a builder and a load"
                    + " strategy): " + (module == null || module.isNull() ? "no module"
                    : builder == null || builder.isNull() ? "no builder" : "no load strategy"));
        }
        this.module = module;
        this.ctx = LLVMGetModuleContext(module);
        this.builder = builder;
        this.strategy = strategy;
        LLVMTypeRef intptr;
        BytePointer dl = LLVMGetDataLayoutStr(module);
        String layout = dl == null ? "" : dl.getString();
        if (layout.isEmpty()) {
            intptr = LLVMInt64TypeInContext(ctx);
        } else {
            var td = LLVMCreateTargetData(layout);
            intptr = LLVMIntPtrTypeInContext(ctx, td);
            LLVMDisposeTargetData(td);
        }
        this.runtime = new RuntimeCalls(module, ctx, intptr);
        this.scratch = new LaunchScratch(ctx);
    }

    /**
     * The LLVM module handlers add to.
     *
     * @return the module
     */
    public LLVMModuleRef module() {
        return module;
    }

    /**
     * The LLVM context of {@link #module()}.
     *
     * @return the module's context
     */
    public LLVMContextRef context() {
        return ctx;
    }

    /**
     * The builder handlers build with: the caller's, or a launch stub's while {@link LaunchEmitter} builds one.
     *
     * @return the current builder
     */
    public LLVMBuilderRef builder() {
        return builder;
    }

    /**
     * The function {@link #builder()} builds in; an {@link IllegalStateException} when the builder is not
     * positioned in a basic block of a function, where LLVM would crash.
     *
     * @return the function the builder's insertion block belongs to
     * @throws IllegalStateException if the builder is not positioned in a basic block of a function
     */
    public LLVMValueRef currentFunction() {
        LLVMBasicBlockRef block = LLVMGetInsertBlock(builder);
        LLVMValueRef fn = block == null || block.isNull() ? null : LLVMGetBasicBlockParent(block);
        if (fn == null || fn.isNull()) {
            throw new IllegalStateException("Invalid builder (must be positioned in a basic block of a function):"
                    + " not positioned");
        }
        return fn;
    }

    /** Runs {@code body} with {@link #builder()} returning {@code b}, then restores the previous builder. */
    void buildWith(LLVMBuilderRef b, Runnable body) {
        LLVMBuilderRef saved = builder;
        builder = b;
        try {
            body.run();
        } finally {
            builder = saved;
        }
    }

    private final java.util.Map<List<String>, Integer> launchSites = new java.util.HashMap<>();

    /**
     * Says that kernel {@code kernel} of {@code binary} is launched from {@code sites} places in the
     * module; a kernel with one launch site is launched in place, without a stub (see
     * {@link LaunchEmitter#throughStub}). Without this, every kernel gets stubs.
     *
     * @param binary the name of the binary that holds the kernel
     * @param kernel the name of the kernel in the binary
     * @param sites how many launches of the kernel the module has
     */
    public void expectLaunchSites(String binary, String kernel, int sites) {
        launchSites.put(List.of(binary, kernel), sites);
    }

    /**
     * The number of launch sites {@link #expectLaunchSites} gave for a kernel, or -1.
     *
     * @param binary the name of the binary that holds the kernel
     * @param kernel the name of the kernel in the binary
     * @return the number of launch sites, or -1 if none was given
     */
    public int launchSites(String binary, String kernel) {
        return launchSites.getOrDefault(List.of(binary, kernel), -1);
    }

    /** Launch stubs by shape (see {@link LaunchEmitter#throughStub}). */
    final java.util.Map<List<Object>, LLVMValueRef> launchStubs = new java.util.HashMap<>();

    /**
     * The declarations of the GPU runtime functions in {@link #module()}.
     *
     * @return the runtime calls
     */
    public RuntimeCalls runtime() {
        return runtime;
    }

    /**
     * How handlers load and unload device binaries.
     *
     * @return the load strategy
     */
    public LoadStrategy loadStrategy() {
        return strategy;
    }

    /**
     * The opaque pointer type.
     *
     * @return {@code ptr} in the module's context
     */
    public LLVMTypeRef ptr() {
        return runtime.ptrType();
    }

    private final java.util.Map<Long, LLVMValueRef> intptrConstants = new java.util.HashMap<>();
    private final java.util.Map<Long, LLVMValueRef> i32Constants = new java.util.HashMap<>();
    private final java.util.Map<String, LLVMValueRef> globals = new java.util.HashMap<>();
    private LLVMValueRef nullPtr;

    /**
     * An {@code intptr_t} constant, created once per value.
     *
     * @param v the value
     * @return the constant
     */
    public LLVMValueRef intptr(long v) {
        return intptrConstants.computeIfAbsent(v, k -> LLVMConstInt(runtime.intptrType(), k, 1));
    }

    /**
     * An {@code i32} constant, created once per value.
     *
     * @param v the value
     * @return the constant
     */
    public LLVMValueRef i32(long v) {
        return i32Constants.computeIfAbsent(v, k -> LLVMConstInt(runtime.i32Type(), k, 1));
    }

    /**
     * The null pointer constant, created once.
     *
     * @return {@code ptr null}
     */
    public LLVMValueRef nullPtr() {
        if (nullPtr == null) {
            nullPtr = LLVMConstNull(ptr());
        }
        return nullPtr;
    }

    /**
     * An error at a location, for a handler to throw.
     *
     * @param loc where the error is, or null
     * @param message what is wrong
     * @return the exception, not thrown
     */
    public MgpuException error(Location loc, String message) {
        return new MgpuException(loc, message);
    }

    /**
     * A global by name, or null.
     *
     * @param name the global's name, without {@code @}
     * @return the global this context or the module holds under that name, or null
     */
    public LLVMValueRef global(String name) {
        LLVMValueRef g = globals.get(name);
        if (g != null) {
            return g;
        }
        g = LLVMGetNamedGlobal(module, name);
        if (g == null || g.isNull()) {
            return null;
        }
        globals.put(name, g);
        return g;
    }

    /**
     * Adds {@code internal constant [N x i8]} named {@code name} holding exactly {@code bytes} (plus a NUL when
     * asked), aligned to {@code align}, not {@code unnamed_addr}. The bytes go to LLVM through native memory,
     * never through a Java string.
     *
     * @param name the global's name
     * @param bytes the bytes to hold
     * @param appendNul whether to add a NUL byte after the bytes
     * @param align the global's alignment in bytes
     * @return the new global
     */
    public LLVMValueRef embedBytes(String name, byte[] bytes, boolean appendNul, int align) {
        return constantGlobal(name, bytes, appendNul, LLVMInternalLinkage, LLVMNoUnnamedAddr, align);
    }

    /**
     * Embeds an object's blob as {@link #embedBytes} does, in the section its {@code section} property
     * names, if any (as upstream does, e.g. {@code __nv_rel_fatbin}).
     *
     * @param name the global's name
     * @param o the object whose bytes to embed
     * @param appendNul whether to add a NUL byte after the bytes
     * @param align the global's alignment in bytes
     * @return the new global
     */
    public LLVMValueRef embedObject(String name, ObjectAttr o, boolean appendNul, int align) {
        LLVMValueRef g = embedBytes(name, o.object().bytes(), appendNul, align);
        if (o.properties() != null && o.properties().get("section") instanceof Attribute.StringAttr section) {
            LLVMSetSection(g, section.value());
        }
        return g;
    }

    /**
     * A {@code private unnamed_addr constant} C string, reused when one of that name exists.
     *
     * @param name the global's name
     * @param text the string, written as UTF-8 with a NUL byte after it
     * @return the existing or new global
     */
    public LLVMValueRef cString(String name, String text) {
        LLVMValueRef g = global(name);
        return g != null ? g : constantGlobal(name, text.getBytes(java.nio.charset.StandardCharsets.UTF_8), true,
                LLVMPrivateLinkage, LLVMGlobalUnnamedAddr, 1);
    }

    /** A constant {@code [N x i8]} global of {@code bytes} (and a NUL when asked), staged through native memory. */
    private LLVMValueRef constantGlobal(String name, byte[] bytes, boolean appendNul, int linkage, int unnamedAddr,
            int align) {
        LLVMValueRef init;
        try (BytePointer data = new BytePointer(bytes.length + 1L)) {
            data.put(bytes, 0, bytes.length);
            data.put(bytes.length, (byte) 0);
            init = LLVMConstStringInContext2(ctx, data, bytes.length + (appendNul ? 1 : 0), 1);
        }
        LLVMValueRef g = LLVMAddGlobal(module, LLVMTypeOf(init), name);
        LLVMSetInitializer(g, init);
        LLVMSetLinkage(g, linkage);
        LLVMSetGlobalConstant(g, 1);
        LLVMSetAlignment(g, align);
        LLVMSetUnnamedAddress(g, unnamedAddr);
        globals.put(name, g);
        return g;
    }

    /**
     * An {@code internal global} of type {@code t}, zero-initialised, created once.
     *
     * @param name the global's name
     * @param t the global's type
     * @param align the global's alignment in bytes
     * @return the existing or new global
     */
    public LLVMValueRef zeroGlobal(String name, LLVMTypeRef t, int align) {
        LLVMValueRef g = global(name);
        if (g != null) {
            return g;
        }
        g = LLVMAddGlobal(module, t, name);
        LLVMSetInitializer(g, LLVMConstNull(t));
        LLVMSetLinkage(g, LLVMInternalLinkage);
        LLVMSetAlignment(g, align);
        globals.put(name, g);
        return g;
    }

    private final java.util.Map<String, LLVMValueRef> functions = new java.util.HashMap<>();

    /**
     * Creates {@code internal void name()}, without a body.
     *
     * @param name the function's name
     * @return the new function
     */
    public LLVMValueRef internalFunction(String name) {
        return internalFunction(name, LLVMFunctionType(LLVMVoidTypeInContext(ctx), (PointerPointer<?>) null, 0, 0));
    }

    /**
     * Creates an internal function of type {@code type}, without a body.
     *
     * @param name the function's name
     * @param type the function's type
     * @return the new function
     */
    public LLVMValueRef internalFunction(String name, LLVMTypeRef type) {
        LLVMValueRef f = LLVMAddFunction(module, name, type);
        LLVMSetLinkage(f, LLVMInternalLinkage);
        functions.put(name, f);
        return f;
    }

    /**
     * A function this context created, or null.
     *
     * @param name the function's name
     * @return the function, or null if this context did not create one of that name
     */
    public LLVMValueRef function(String name) {
        return functions.get(name);
    }

    /**
     * An enum attribute such as {@code alwaysinline}.
     *
     * @param name the attribute's name
     * @return the attribute, without a value
     */
    public org.bytedeco.llvm.LLVM.LLVMAttributeRef enumAttribute(String name) {
        return LLVMCreateEnumAttribute(ctx, LLVMGetEnumAttributeKindForName(name, name.length()), 0);
    }

    private LLVMValueRef unlikely;
    private int profKind;

    /**
     * Marks a conditional branch as almost never taking its first successor.
     *
     * @param branch the conditional branch instruction
     */
    public void setUnlikely(LLVMValueRef branch) {
        if (unlikely == null) {
            org.bytedeco.llvm.LLVM.LLVMMetadataRef[] md = {LLVMMDStringInContext2(ctx, "branch_weights", 14),
                LLVMValueAsMetadata(i32(1)), LLVMValueAsMetadata(i32(2000))};
            try (PointerPointer<?> p = new PointerPointer<>(md)) {
                unlikely = LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, p, 3));
            }
            profKind = LLVMGetMDKindIDInContext(ctx, "prof", 4);
        }
        LLVMSetMetadata(branch, profKind, unlikely);
    }

    /**
     * The priority of the constructors and destructors handlers add, upstream's: below the default
     * (65535), so a device module is loaded before a user's constructor of default priority runs, and
     * unloaded after its destructor.
     */
    public static final int CONSTRUCTOR_PRIORITY = 123;

    /**
     * Runs {@code fn} at program start; it is placed in {@code .text.startup}, as compilers place constructors.
     *
     * @param fn a function of type {@code void ()}
     * @throws IllegalStateException if the context is finished
     */
    public void addConstructor(LLVMValueRef fn) {
        requireOpen("constructor");
        LLVMSetSection(fn, ".text.startup");
        ctors.add(fn);
    }

    /**
     * Runs {@code fn} at program exit.
     *
     * @param fn a function of type {@code void ()}
     * @throws IllegalStateException if the context is finished
     */
    public void addDestructor(LLVMValueRef fn) {
        requireOpen("destructor");
        dtors.add(fn);
    }

    /**
     * The struct of {@code fields} that holds a launch's arguments: one named type ({@code %mgpu.args},
     * {@code %mgpu.args.0}, ...) per distinct field list. IR text then names it in each field's address
     * instead of spelling out every field, so a launch of N arguments costs O(N) text, not O(N^2).
     *
     * @param fields the struct's field types
     * @return the named struct type for that field list
     */
    public LLVMTypeRef structType(LLVMTypeRef[] fields) {
        return scratch.structType(fields);
    }

    /**
     * A launch's argument struct and its array of pointers to the struct's fields.
     *
     * @param pointers the array of pointers to the struct's fields, which a launch passes to the runtime
     * @param fields the pointers to the struct's fields, in order, to store argument values through
     */
    public record LaunchArgs(LLVMValueRef pointers, List<LLVMValueRef> fields) {
    }

    /**
     * The argument struct of type {@code st} for launches in the current function, and its pointer array,
     * filled once in the entry block: the field addresses never change, so a launch only stores its
     * argument values.
     *
     * @param st the argument struct type
     * @param fields the number of fields in {@code st}
     * @return the struct's field pointers and the pointer array
     * @throws IllegalStateException if the builder is not positioned in a basic block of a function
     */
    public LaunchArgs launchArgs(LLVMTypeRef st, int fields) {
        return scratch.launchArgs(currentFunction(), st, fields, ptr(), intptr(fields));
    }

    /**
     * Builds an {@code alloca} in the entry block of the current function, so that launches in loops do
     * not grow the stack.
     *
     * @param t the type to allocate
     * @param count the number of elements, or null for one
     * @param name the value's name, or empty
     * @return the alloca
     * @throws IllegalStateException if the builder is not positioned in a basic block of a function
     */
    public LLVMValueRef entryAlloca(LLVMTypeRef t, LLVMValueRef count, String name) {
        return scratch.entryAlloca(currentFunction(), t, count, name);
    }

    private void requireOpen(String what) {
        if (finished) {
            throw new IllegalStateException("Invalid " + what + " (must be added before the context is finished):"
                    + " finished already");
        }
    }

    /**
     * Writes {@code llvm.global_ctors} / {@code llvm.global_dtors}, after the last handler call; a second
     * call does nothing.
     */
    public void finish() {
        if (finished) {
            return;
        }
        finished = true;
        table("llvm.global_ctors", ctors);
        table("llvm.global_dtors", dtors);
        ctors.clear();
        dtors.clear();
    }

    /**
     * Whether {@link #finish()} has run.
     *
     * @return true once the context is finished
     */
    public boolean isFinished() {
        return finished;
    }

    /** {@link #finish()}es the context, so that try-with-resources cannot forget the constructor tables. */
    @Override
    public void close() {
        finish();
    }

    /**
     * Claims the embedding of binary {@code name}: an {@link IllegalStateException} when it is embedded
     * already (LLVM would rename the second blob, and launches would use the first).
     *
     * @param name the binary's name
     * @throws IllegalStateException if the binary is embedded already or the context is finished
     */
    public void claimEmbedding(String name) {
        requireOpen("embedding of @" + name);
        if (!embedded.add(name)) {
            throw new IllegalStateException("Invalid embedding (must be once per binary): @" + name
                    + " is embedded already");
        }
    }

    private final java.util.Set<String> embedded = new java.util.HashSet<>();

    private void table(String name, List<LLVMValueRef> fns) {
        if (fns.isEmpty()) {
            return;
        }
        LLVMTypeRef i32 = runtime.i32Type();
        LLVMTypeRef entryTy;
        try (PointerPointer<LLVMTypeRef> f = new PointerPointer<>(i32, ptr(), ptr())) {
            entryTy = LLVMStructTypeInContext(ctx, f, 3, 0);
        }
        LLVMValueRef[] entries = new LLVMValueRef[fns.size()];
        for (int i = 0; i < entries.length; i++) {
            try (PointerPointer<LLVMValueRef> v = new PointerPointer<>(i32(CONSTRUCTOR_PRIORITY), fns.get(i), nullPtr())) {
                entries[i] = LLVMConstNamedStruct(entryTy, v, 3);
            }
        }
        LLVMValueRef arr;
        try (PointerPointer<LLVMValueRef> v = new PointerPointer<>(entries)) {
            arr = LLVMConstArray2(entryTy, v, entries.length);
        }
        LLVMValueRef g = LLVMAddGlobal(module, LLVMTypeOf(arr), name);
        LLVMSetInitializer(g, arr);
        LLVMSetLinkage(g, LLVMAppendingLinkage);
    }
}
