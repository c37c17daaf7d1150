package dev.mgpu.codegen.internal;

import dev.mgpu.codegen.internal.llvm.NativeTargetMachine;
import dev.mgpu.codegen.internal.llvm.IsolatedBackend;
import dev.mgpu.codegen.internal.llvm.Targets;
import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.codegen.internal.translate.Inspection;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.KernelOptions;
import dev.mgpu.codegen.NativeModule;
import dev.mgpu.dialect.gpu.BinaryOp;
import dev.mgpu.dialect.gpu.GpuModuleOp;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.dialect.gpu.ObjectFormat;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.DeepStack;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.llvm.LLVM.LLVMMemoryBufferRef;
import org.bytedeco.llvm.LLVM.LLVMModuleRef;
import org.bytedeco.llvm.LLVM.LLVMTargetRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * Compiles the kernels of each {@code gpu.module} for each of its GPU targets and puts a {@code gpu.binary}
 * of the same name, with one object per target, in the module's place: what upstream's
 * {@code gpu-module-to-binary} does after {@code convert-gpu-to-nvvm} or {@code -rocdl}, with LLVM's own
 * NVPTX and AMDGPU back ends and no vendor toolkit (ptxas and fatbinary are used when found).
 *
 * <p>A {@code gpu.module} is compiled when it has targets and a function with a body or nothing at all, and no
 * {@code gpu.binary} already has its name. The model has been verified; every kernel module is translated
 * and passes LLVM's verifier before any code generation.
 */
public final class KernelCompiler {
    private KernelCompiler() {
    }

    /** Whether {@code root} holds a {@code gpu.module} that {@link #compile} would compile. */
    public static boolean needed(Operation root) {
        return !compilable(root).isEmpty();
    }

    private static List<Operation> compilable(Operation root) {
        Set<String> binaries = new HashSet<>();
        List<Operation> modules = new ArrayList<>();
        for (Operation op : root.region(0).entry().operations()) {
            if (op.name().equals(BinaryOp.NAME)) {
                binaries.add(op.symbolName());
            } else if (op.name().equals(GpuModuleOp.NAME) && op.attr(GpuModuleOp.TARGETS) instanceof Attribute.ArrayAttr
                    && (hasBody(op) || isEmpty(op))) {
                modules.add(op);
            }
        }
        modules.removeIf(m -> binaries.contains(m.symbolName()));
        return modules;
    }

    /** Whether {@code module}, a {@code gpu.module}, holds nothing: upstream makes it a binary of empty objects. */
    private static boolean isEmpty(Operation module) {
        return module.regions().size() == 1 && !module.region(0).isEmpty()
                && module.region(0).entry().operations().isEmpty();
    }

    /** Whether {@code module}, a {@code gpu.module}, has a function with a body. */
    static boolean hasBody(Operation module) {
        if (module.regions().size() != 1) {
            return false;
        }
        for (Operation f : module.region(0).entry().operations()) {
            if (!f.regions().isEmpty() && !f.region(0).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /**
     * A {@code #cpu.target} whose kernels would be compiled for another machine than the program's
     * {@code triple} (null: the host's) is a located error: the C compiler links them for this machine only.
     */
    public static void checkCpuTriples(Operation root, String triple) {
        if (triple == null) {
            return;
        }
        for (Operation m : compilable(root)) {
            for (Attribute a : ((Attribute.ArrayAttr) m.attr(GpuModuleOp.TARGETS)).elements()) {
                if (a instanceof GpuTarget g) {
                    DeviceTargets.checkProgramTriple(g, triple, m);
                }
            }
        }
    }

    /**
     * Compiles every compilable {@code gpu.module} of {@code root} and replaces it with its {@code gpu.binary};
     * with {@code debugInfo}, kernels of targets that a debugger steps through on the host (the CPU) get
     * DWARF line tables at the lines of the input.
     */
    public static void compile(Operation root, KernelOptions options, boolean debugInfo) {
        // Each module and target is its own LLVM context and target machine, and only reads the model: they
        // are compiled side by side (a program for sm_90, sm_80, gfx90a and the CPU compiles in about half the
        // time on two cores). What the first failing one (in program order) reports is the error.
        // Each one's notes are kept and passed on afterwards, in program order, on the caller's thread.
        List<Operation> modules = compilable(root);
        List<Supplier<ObjectAttr>> work = new ArrayList<>();
        List<List<String>> notes = new ArrayList<>();
        for (Operation m : modules) {
            for (Attribute a : ((Attribute.ArrayAttr) m.attr(GpuModuleOp.TARGETS)).elements()) {
                List<String> own = java.util.Collections.synchronizedList(new ArrayList<>());
                notes.add(own);
                KernelOptions piece = options.withNotes(own::add);
                work.add(() -> compile(m, (GpuTarget) a, piece, debugInfo));
            }
        }
        List<ObjectAttr> results;
        try {
            results = DeepStack.callAll(work);
        } finally {
            for (List<String> own : notes) {
                own.forEach(options.notes());
            }
        }
        Iterator<ObjectAttr> compiled = results.iterator();
        for (Operation m : modules) {
            List<ObjectAttr> objects = new ArrayList<>();
            GpuModuleOp gm = new GpuModuleOp(m);
            for (int i = gm.targets().size(); i > 0; i--) {
                objects.add(compiled.next());
            }
            Operation binary = BinaryOp.create(m.location(), m.symbolName(), gm.offloadingHandler(), objects).op();
            m.parent().replace(m, binary);
        }
    }

    private static ObjectAttr compile(Operation module, GpuTarget target, KernelOptions options, boolean debugInfo) {
        DeviceTarget d = DeviceTargets.of(target);
        if (d == null) {
            throw new MgpuException(module.knownLocation(), "Invalid target for compiling kernels (must be"
                    + " #nvvm.target, #rocdl.target or #cpu.target): " + target);
        }
        Location where = module.knownLocation();
        String chip = d.chip().isEmpty() ? null : d.chip();
        String features = d.features() == null || d.features().isEmpty() ? null : d.features();
        d.checkChip(chip, features, where);
        d.findLibrary();
        try (NativeModule nm = new NativeModule(module.symbolName());
                NativeTargetMachine tm = d.machine(module, chip, features, where)) {
            // Without a handler, an error that LLVM's back end reports (too much workgroup memory, say) ends
            // the process; with one, it is collected and becomes a located error after the step.
            Diagnostics diagnostics = new Diagnostics();
            Diagnostics.OPEN.put(nm.context().address(), diagnostics);
            LLVMContextSetDiagnosticHandler(nm.context(), Diagnostics.HANDLER, nm.context());
            try {
                return compile(module, target, options, d, where, nm, tm, diagnostics, debugInfo);
            } finally {
                if (d.remembersModules() && diagnostics.optimised) {
                    IsolatedBackend.forget(tm.get(), nm);
                }
                LLVMContextSetDiagnosticHandler(nm.context(), null, null);
                Diagnostics.OPEN.remove(nm.context().address());
            }
        }
    }

    /** LLVM's error diagnostics of one kernel compilation, collected instead of ending the process. */
    private static final class Diagnostics {
        /**
         * The one handler of every compilation, which finds the compilation by its LLVM context. JavaCPP has
         * ten native slots for the callbacks of one class, and an instance past them would silently be a null
         * handler; compilations run side by side, so one handler serves them all.
         */
        static final org.bytedeco.llvm.LLVM.LLVMDiagnosticHandler HANDLER =
                new org.bytedeco.llvm.LLVM.LLVMDiagnosticHandler() {
                    @Override
                    public void call(org.bytedeco.llvm.LLVM.LLVMDiagnosticInfoRef info, Pointer context) {
                        Diagnostics d = context == null ? null : OPEN.get(context.address());
                        if (d != null && LLVMGetDiagInfoSeverity(info) == LLVMDSError) {
                            BytePointer text = LLVMGetDiagInfoDescription(info);
                            // LLVM prefixes a message without a source location with "<unknown>:0:0: ".
                            d.errors.add(text.getString().replaceFirst("^<unknown>:0:0: ", ""));
                            LLVMDisposeMessage(text);
                        }
                    }
                };
        /** The compilations under way, by the address of their LLVM context. */
        static final Map<Long, Diagnostics> OPEN = new java.util.concurrent.ConcurrentHashMap<>();

        final List<String> errors = new ArrayList<>();
        /**
         * Whether LLVM's optimiser has run on the module (after its verifier passed it): from then on LLVM may
         * keep what it read of the module, and the module is made to forget it.
         */
        boolean optimised;

        void check(Location where, DeviceTarget d) {
            if (!errors.isEmpty()) {
                throw new MgpuException(where, "Invalid kernels for " + d.name() + " (must be accepted by LLVM's back"
                        + " end): " + String.join("; ", errors));
            }
        }
    }

    private static ObjectAttr compile(Operation module, GpuTarget target, KernelOptions options, DeviceTarget d,
            Location where, NativeModule nm, NativeTargetMachine tm, Diagnostics diagnostics, boolean debugInfo) {
        {
            LLVMSetTarget(nm.module(), d.triple());
            var layout = LLVMCreateTargetDataLayout(tm.get());
            LLVMSetModuleDataLayout(nm.module(), layout);
            LLVMDisposeTargetData(layout);
            ModuleTranslation.translateDevice(module, nm, d, Translators.TABLE, options.barePointers(),
                    debugInfo && d.debuggedOnHost());
            d.configureModule(nm.module(), nm.context(), module);
            libraryDeclarations(nm, module, d, options);
            Pipeline.verifyLlvm(nm, module.knownLocation(), "Invalid kernel module for " + d.name()
                    + " (must pass LLVM's verifier): ");
            if (d.linksLibrary()) {
                linkLibrary(nm, d, where);
            }
            diagnostics.optimised = true;
            Targets.runPasses(nm, "default<O" + Math.max(0, Math.min(3, d.optLevel())) + ">", tm.get(), where,
                    "Invalid kernel module for " + d.name() + " (must pass LLVM's optimiser): ");
            diagnostics.check(where, d);
            // The optimiser can state that a kernel initialises bytes [2^63-1, 2^63) of an argument (a store at
            // index 2^63-1), a range that wraps, which LLVM's own bitcode reader then refuses ("Invalid
            // (unordered or overlapping) range list"); no code generator reads the attribute.
            Targets.dropParameterAttribute(nm, "initializes");
            ObjectFormat format = options.format();
            if (format != ObjectFormat.OFFLOAD) {
                d.beforeEmit(nm.module(), nm.context(), module);
            }
            Map<String, Attribute> props = new LinkedHashMap<>();
            props.put("O", new Attribute.IntegerAttr(d.optLevel(), Type.I32));
            if (options.barePointers()) {
                // So that a launch translated later, in another run, passes what these kernels take.
                props.put(ObjectAttr.BARE_POINTERS, Attribute.UNIT);
            }
            if (format == ObjectFormat.OFFLOAD) {
                Inspection.keep(module, d, options, "ll", nm.toIRBytes());
                return d.object(format, props, Targets.drain(LLVMWriteBitcodeToMemoryBuffer(nm.module()), module));
            }
            boolean inspect = Inspection.wanted(options);
            boolean isolated = IsolatedBackend.enabled();
            java.util.function.IntFunction<byte[]> emit = kind -> emit(tm, nm, kind, where, diagnostics, d, module,
                    isolated);
            if (inspect) {
                Inspection.beforeEmit(module, d, options, nm, emit);
            }
            ObjectAttr o = d.serialize(module, format, props, options, emit);
            if (inspect) {
                Inspection.afterEmit(module, d, options, o);
            }
            return o;
        }
    }

    /**
     * Functions the kernels declare and call from the device library (a lowered kernel calls
     * {@code __nv_fmaf} itself): they need the library, and nothing else may stay undefined.
     */
    private static void libraryDeclarations(NativeModule nm, Operation module, DeviceTarget d, KernelOptions options) {
        for (LLVMValueRef f = LLVMGetFirstFunction(nm.module()); f != null && !f.isNull(); f = LLVMGetNextFunction(f)) {
            String name = LLVMGetValueName(f).getString();
            if (LLVMIsDeclaration(f) == 0 || name.startsWith("llvm.")) {
                continue;
            }
            if (d.providesUndefined(name)) {
                continue;
            }
            Operation decl = declaration(module, name);
            if (!d.bindsAtLoad(name, decl, options)) {
                throw new MgpuException(decl != null ? decl.knownLocation() : module.knownLocation(),
                        "Invalid function for " + d.name() + " (must be defined in the gpu.module"
                        + d.undefinedHint(name) + "): @" + name);
            }
        }
    }

    /** The declaration (a function without a body) named {@code name} in {@code module}, or null. */
    private static Operation declaration(Operation module, String name) {
        for (Operation op : module.region(0).entry().operations()) {
            if (name.equals(op.symbolName()) && !op.regions().isEmpty() && op.region(0).isEmpty()) {
                return op;
            }
        }
        return null;
    }

    /** Links the device library, keeps only what the kernels call, and tells it the denormal mode. */
    private static void linkLibrary(NativeModule nm, DeviceTarget d, Location where) {
        LLVMMemoryBufferRef buf = new LLVMMemoryBufferRef();
        BytePointer err = new BytePointer((Pointer) null);
        int failed;
        try (BytePointer path = new BytePointer(d.library.toString())) {
            failed = LLVMCreateMemoryBufferWithContentsOfFile(path, buf, err);
        }
        if (failed != 0) {
            String m = err.getString();
            LLVMDisposeMessage(err);
            throw new MgpuException(where, "Invalid " + d.libraryName() + " (must be readable): " + d.library + ": " + m);
        }
        LLVMModuleRef lib = new LLVMModuleRef();
        try {
            if (LLVMParseBitcodeInContext2(nm.context(), buf, lib) != 0) {
                throw new MgpuException(where, "Invalid " + d.libraryName() + " (must be LLVM bitcode): " + d.library);
            }
        } finally {
            LLVMDisposeMemoryBuffer(buf);
        }
        LLVMSetTarget(lib, d.triple());
        LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(nm.module()));
        Set<String> own = new HashSet<>();
        for (LLVMValueRef f = LLVMGetFirstFunction(nm.module()); f != null && !f.isNull(); f = LLVMGetNextFunction(f)) {
            if (LLVMIsDeclaration(f) == 0) {
                own.add(LLVMGetValueName(f).getString());
            }
        }
        if (LLVMLinkModules2(nm.module(), lib) != 0) {
            throw new MgpuException(where, "Invalid " + d.libraryName() + " (must link with the kernels): " + d.library);
        }
        // The library's functions serve these kernels only: internal, so that unused ones are dropped.
        for (LLVMValueRef f = LLVMGetFirstFunction(nm.module()); f != null && !f.isNull(); f = LLVMGetNextFunction(f)) {
            String name = LLVMGetValueName(f).getString();
            if (LLVMIsDeclaration(f) == 0 && !own.contains(name)) {
                LLVMSetLinkage(f, LLVMInternalLinkage);
            }
        }
        for (LLVMValueRef g = LLVMGetFirstGlobal(nm.module()); g != null && !g.isNull(); g = LLVMGetNextGlobal(g)) {
            if (LLVMIsDeclaration(g) == 0 && LLVMGetValueName(g).getString().startsWith("__nv")) {
                LLVMSetLinkage(g, LLVMInternalLinkage);
            }
        }
        boolean ftz = d.flushesF32Denormals();
        String key = "nvvm-reflect-ftz";
        LLVMAddModuleFlag(nm.module(), LLVMModuleFlagBehaviorOverride, key, key.length(),
                LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(nm.context()), ftz ? 1 : 0, 0)));
    }

    private static byte[] emit(NativeTargetMachine tm, NativeModule nm, int kind, Location where, Diagnostics diagnostics,
            DeviceTarget d, Operation module, boolean isolated) {
        if (isolated) {
            return IsolatedBackend.emit(nm, d.triple(), d.backendCpu(), d.backendFeatures(),
                    Math.max(0, Math.min(3, d.optLevel())), kind, module, d.name());
        }
        byte[] out = IsolatedBackend.emitHere(tm.get(), nm, kind, module);
        diagnostics.check(where, d);
        return out;
    }
}
