package dev.mgpu.codegen.internal.device.nvptx;

import dev.mgpu.codegen.internal.llvm.ExternalTools;
import dev.mgpu.codegen.internal.llvm.Targets;
import dev.mgpu.codegen.internal.llvm.ResourceUsage;
import dev.mgpu.codegen.internal.translate.CodeGeneration;
import dev.mgpu.codegen.internal.translate.DeviceTarget;
import dev.mgpu.codegen.internal.translate.Inspection;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.KernelOptions;
import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.dialect.gpu.ObjectFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Map;
import java.util.function.IntFunction;
import dev.mgpu.dialect.gpu.GpuFuncOp;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import java.util.List;
import java.util.Set;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.llvm.LLVM.LLVMBasicBlockRef;
import org.bytedeco.llvm.LLVM.LLVMContextRef;
import org.bytedeco.llvm.LLVM.LLVMMetadataRef;
import org.bytedeco.llvm.LLVM.LLVMTypeRef;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/** NVIDIA GPUs through LLVM's NVPTX back end. */
public final class Nvptx extends DeviceTarget {
    private final GpuTarget.NVVMTarget n;

    public Nvptx(GpuTarget.NVVMTarget n) {
        super(n);
        this.n = n;
    }

    @Override
    public String triple() {
        return n.triple();
    }

    @Override
    public String chip() {
        return n.chip();
    }

    @Override
    public String features() {
        return n.features();
    }

    @Override
    public int optLevel() {
        return n.optLevel();
    }

    /** Whether {@code flags} asks for flush-to-zero of denormals ({@code ftz}). */
    public boolean ftz() {
        return n.flags() != null && n.flags().entries().containsKey("ftz");
    }

    /** Whether {@code flags} asks for fast, approximate math ({@code fast}). */
    public boolean fast() {
        return n.flags() != null && n.flags().entries().containsKey("fast");
    }

    /**
     * {@code ftz}: f32 denormals flush to zero (the back end then picks the {@code .ftz} forms);
     * {@code fast}: unsafe and approximate float math allowed (approximate division, square root).
     */
    @Override
    public void configureModule(org.bytedeco.llvm.LLVM.LLVMModuleRef module, LLVMContextRef ctx, Operation where) {
        if (ftz()) {
            setOnDefinedFunctions(module, ctx, "denormal-fp-math-f32", "preserve-sign,preserve-sign");
        }
        if (fast()) {
            setOnDefinedFunctions(module, ctx, "unsafe-fp-math", "true");
            setOnDefinedFunctions(module, ctx, "approx-func-fp-math", "true");
        }
    }

    @Override
    public int kernelCallingConvention() {
        return 71; // ptx_kernel
    }

    /**
     * The block size a kernel promises ({@code known_block_size}) is its {@code .maxntid}, as upstream's
     * lowering makes it: ptxas may then give each thread more registers, and the driver refuses a
     * launch of larger blocks instead of running it. A lowered function's {@code nvvm.maxntid} and
     * {@code nvvm.reqntid} become its {@code .maxntid} and {@code .reqntid}.
     */
    @Override
    public void markKernel(LLVMValueRef fn, Operation op, LLVMContextRef ctx) {
        super.markKernel(fn, op, ctx);
        annotate(fn, ctx, "maxntid", op.name().equals(GpuFuncOp.NAME) ? op.attr(GpuFuncOp.KNOWN_BLOCK_SIZE)
                : op.attr("nvvm.maxntid"));
        annotate(fn, ctx, "reqntid", op.attr("nvvm.reqntid"));
    }

    /** {@code !nvvm.annotations} entries {@code key}x, y and z for each size of {@code sizes}, if any. */
    private static void annotate(LLVMValueRef fn, LLVMContextRef ctx, String key, Attribute sizes) {
        if (!(sizes instanceof Attribute.DenseArrayAttr d)) {
            return;
        }
        LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
        for (int dim = 0; dim < d.size(); dim++) {
            String name = key + XYZ.charAt(dim);
            LLVMMetadataRef[] entry = {LLVMValueAsMetadata(fn), LLVMMDStringInContext2(ctx, name, name.length()),
                LLVMValueAsMetadata(LLVMConstInt(i32, d.get(dim), 0))};
            try (PointerPointer<LLVMMetadataRef> pp = new PointerPointer<>(entry)) {
                LLVMAddNamedMetadataOperand(LLVMGetGlobalParent(fn), "nvvm.annotations",
                        LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, pp, entry.length)));
            }
        }
    }

    @Override
    public int privateAddressSpace() {
        return 0; // allocas live in the generic space; the back end moves them to local memory
    }

    @Override
    public boolean isKernelMarked(Operation op) {
        return op.hasAttr("nvvm.kernel");
    }

    private static LLVMValueRef sreg(ModuleTranslation t, String reg) {
        return call(t, "llvm.nvvm.read.ptx.sreg." + reg, i32Type(t));
    }

    @Override
    public LLVMValueRef threadId(ModuleTranslation t, int dim) {
        return sreg(t, "tid." + XYZ.charAt(dim));
    }

    @Override
    public LLVMValueRef blockId(ModuleTranslation t, int dim) {
        return sreg(t, "ctaid." + XYZ.charAt(dim));
    }

    @Override
    public LLVMValueRef blockDim(ModuleTranslation t, int dim) {
        return sreg(t, "ntid." + XYZ.charAt(dim));
    }

    @Override
    public LLVMValueRef gridDim(ModuleTranslation t, int dim) {
        return sreg(t, "nctaid." + XYZ.charAt(dim));
    }

    @Override
    public LLVMValueRef laneId(ModuleTranslation t) {
        return sreg(t, "laneid");
    }

    @Override
    public LLVMValueRef subgroupSize(ModuleTranslation t) {
        return i32(t, 32);
    }

    @Override
    public void barrier(ModuleTranslation t) {
        call(t, "llvm.nvvm.barrier0", LLVMVoidTypeInContext(t.ctx));
    }

    @Override
    public LLVMValueRef[] shuffle32(ModuleTranslation t, String mode, LLVMValueRef value, LLVMValueRef offset,
            LLVMValueRef width, LLVMValueRef laneId, LLVMValueRef src, LLVMValueRef mask) {
        // shfl.sync over segments of `width` lanes: c = (32 - width) << 8 | (up ? 0 : 31), as PTX defines
        // the segment. Every segment takes part, so the mask is the whole warp, which must run the shuffle
        // together (as nvcc's __shfl_xor_sync(0xffffffff, ...) and upstream's lowering assume), unless the
        // caller names the lanes that exist.
        // A width that is not a power of two has no PTX segments: c = width - 1 (0 for up), one segment of the
        // first `width` lanes, as upstream's NVVM lowering encodes every width.
        LLVMValueRef seg = LLVMBuildShl(t.builder, LLVMBuildSub(t.builder, i32(t, 32), width, ""), i32(t, 8), "");
        LLVMValueRef segments = mode.equals("up") ? seg : LLVMBuildOr(t.builder, seg, i32(t, 31), "");
        LLVMValueRef first = mode.equals("up") ? i32(t, 0) : LLVMBuildSub(t.builder, width, i32(t, 1), "");
        LLVMValueRef pow2 = LLVMBuildICmp(t.builder, LLVMIntEQ, LLVMBuildAnd(t.builder, width,
                LLVMBuildSub(t.builder, width, i32(t, 1), ""), ""), i32(t, 0), "");
        LLVMValueRef clamp = LLVMBuildSelect(t.builder, pow2, segments, first, "");
        LLVMValueRef members = mask != null ? mask : i32(t, -1);
        String m = switch (mode) {
            case "xor" -> "bfly";
            case "up" -> "up";
            case "down" -> "down";
            default -> "idx";
        };
        LLVMTypeRef ty = LLVMTypeOf(value);
        boolean isFloat = LLVMGetTypeKind(ty) == LLVMFloatTypeKind;
        LLVMTypeRef[] fields = {ty, LLVMInt1TypeInContext(t.ctx)};
        LLVMTypeRef pair;
        try (PointerPointer<LLVMTypeRef> p = new PointerPointer<>(fields)) {
            pair = LLVMStructTypeInContext(t.ctx, p, 2, 0);
        }
        LLVMValueRef r = call(t, "llvm.nvvm.shfl.sync." + m + "." + (isFloat ? "f32p" : "i32p"), pair, members, value,
                offset, clamp);
        return new LLVMValueRef[] {LLVMBuildExtractValue(t.builder, r, 0, ""), LLVMBuildExtractValue(t.builder, r,
                1, "")};
    }

    @Override
    public Set<String> nativeF32() {
        return Set.of("sqrt", "fabs", "floor", "ceil", "round", "trunc", "fma", "copysign", "exp2");
    }

    @Override
    public String libraryFunction(String kind, boolean f64) {
        String base = switch (kind) {
            case "exp", "exp2", "log", "log2", "sin", "cos", "tanh", "erf", "pow", "sqrt", "rsqrt" -> kind;
            default -> LIBM.contains(kind) ? kind : null;
        };
        return base == null ? null : "__nv_" + base + (f64 ? "" : "f");
    }

    @Override
    public String libraryName() {
        return "libdevice";
    }

    @Override
    public boolean shuffleNamesLanes() {
        return true;
    }

    /** In the constant address space, reached through a generic pointer, as the driver's vprintf takes it. */
    @Override
    public LLVMValueRef printfFormat(ModuleTranslation t, Operation op, LLVMValueRef text) {
        LLVMValueRef g = formatGlobal(t, text, 4);
        return LLVMBuildAddrSpaceCast(t.builder, g, LLVMPointerTypeInContext(t.ctx, 0), "");
    }

    /** The CUDA driver's {@code vprintf}, with the arguments in a buffer laid out as a C struct. */
    @Override
    public void printf(ModuleTranslation t, LLVMValueRef fmt, List<LLVMValueRef> args) {
        LLVMValueRef buffer = LLVMConstNull(LLVMPointerTypeInContext(t.ctx, 0));
        if (!args.isEmpty()) {
            LLVMTypeRef[] fields = args.stream().map(a -> LLVMTypeOf(a)).toArray(LLVMTypeRef[]::new);
            LLVMTypeRef struct;
            try (PointerPointer<LLVMTypeRef> fs = new PointerPointer<>(fields)) {
                struct = LLVMStructTypeInContext(t.ctx, fs, fields.length, 0);
            }
            buffer = t.entryAlloca(struct);
            for (int i = 0; i < args.size(); i++) {
                LLVMBuildStore(t.builder, args.get(i), LLVMBuildStructGEP2(t.builder, struct, buffer, i, ""));
            }
        }
        callLibrary(t, "CUDA driver", "vprintf", LLVMInt32TypeInContext(t.ctx), fmt, buffer);
    }

    /** The CUDA driver's {@code __assertfail(message, file, line, function, charSize)}, as upstream lowers it. */
    @Override
    public void assertFailed(ModuleTranslation t, Operation op, byte[] message) {
        Object[] at = place(op);
        LLVMValueRef msg = cString(t, nul(message), 1);
        LLVMValueRef file = cString(t, nul(((String) at[0]).getBytes(java.nio.charset.StandardCharsets.UTF_8)), 1);
        LLVMValueRef fn = cString(t, nul(((String) at[2]).getBytes(java.nio.charset.StandardCharsets.UTF_8)), 1);
        callLibrary(t, "CUDA driver", "__assertfail", LLVMVoidTypeInContext(t.ctx), msg, file, i32(t, (int) at[1]), fn,
                LLVMConstInt(LLVMInt64TypeInContext(t.ctx), 1, 0));
        LLVMBuildUnreachable(t.builder);
    }

    private static byte[] nul(byte[] b) {
        return java.util.Arrays.copyOf(b, b.length + 1);
    }

    @Override
    public String loweredDialect() {
        return "nvvm";
    }

    @Override
    public void initBackend() {
        Targets.initDeviceTarget(true);
    }

    @Override
    public void findLibrary() {
        library = libdevice(attr);
    }

    @Override
    public boolean flushesF32Denormals() {
        return ftz();
    }

    /** gpu.printf's {@code vprintf} is the CUDA driver's, which ptxas and the driver's JIT know. */
    @Override
    public boolean providesUndefined(String name) {
        if (name.equals("vprintf") || name.equals("__assertfail")) {
            return true;
        }
        if (name.startsWith("__nv_") && libraryAvailable()) {
            libraryUsed(name);
            return true;
        }
        return false;
    }

    @Override
    public String undefinedHint(String name) {
        return name.startsWith("__nv_") ? ", or " + libraryName() + " must be found" : "";
    }

    /** PTX, assembled by ptxas into a cubin (and with fatbinary into a fat binary) when they are found. */
    @Override
    public ObjectAttr serialize(Operation module, ObjectFormat format, Map<String, Attribute> props, KernelOptions options,
            IntFunction<byte[]> emit) {
        byte[] ptx = emit.apply(LLVMAssemblyFile);
        Inspection.keep(module, this, options, "ptx", ptx);
        if (format == ObjectFormat.ASSEMBLY && !options.resourceUsage()) {
            return object(format, props, ptx);
        }
        return ptxObject(module, ptx, format, props, options);
    }

    /**
     * LLVM's NVPTX back end caches each module's kernel annotations (maxntid and the like) for the whole
     * process by the module's address when its optimiser or code generator first reads them, and forgets them
     * only when it generates that module's code. With the code generated elsewhere (in llc, or from a copy) and
     * nothing more, a module compiled later in the same JVM got other code than alone (one of 100 kernels got
     * {@code add} for {@code or} in its PTX, served and side by side): by all we saw, a later module at a
     * reused address read another kernel's block size bounds.
     */
    @Override
    public boolean remembersModules() {
        return true;
    }

    /** PTX is kept, and resource usage read from ptxas, in {@link #serialize}. */
    @Override
    public boolean keepsItsAssembly() {
        return true;
    }

    /**
     * What ptxas is given besides the target and file names: the optimisation level, the target's
     * {@code flags = {"ptxas-cmd-options" = [...]}} (an array of arguments, or one string of them separated by
     * spaces), and the run's own options ({@code -Xptxas}).
     */
    List<String> ptxasArguments(KernelOptions options) {
        List<String> args = new ArrayList<>();
        args.add("-O" + Math.max(0, Math.min(3, optLevel())));
        Attribute given = n.flags() == null ? null : n.flags().get(PTXAS_OPTIONS);
        if (given instanceof Attribute.ArrayAttr a) {
            for (Attribute e : a.elements()) {
                if (e instanceof Attribute.StringAttr s) {
                    args.add(s.value());
                }
            }
        } else if (given instanceof Attribute.StringAttr s) {
            for (String word : s.value().strip().split("\\s+")) {
                if (!word.isEmpty()) {
                    args.add(word);
                }
            }
        }
        args.addAll(options.ptxasOptions());
        return args;
    }

    /** The key of a target's {@code flags} whose value ptxas is given, as upstream's NVVM target names it. */
    public static final String PTXAS_OPTIONS = "ptxas-cmd-options";

    /**
     * libdevice: the first {@code libdevice*.bc} the target's {@code link} list names, else the CUDA
     * toolkit's ({@code $CUDA_HOME}, {@code /usr/local/cuda}, or next to {@code ptxas}), else null.
     */
    private static Path libdevice(GpuTarget target) {
        if (target instanceof GpuTarget.NVVMTarget n && n.link() != null) {
            for (Attribute a : n.link().elements()) {
                if (a instanceof Attribute.StringAttr s && Path.of(s.value()).getFileName().toString()
                        .startsWith("libdevice")) {
                    return Path.of(s.value());
                }
            }
        }
        List<Path> roots = new ArrayList<>();
        String home = System.getenv("CUDA_HOME");
        if (home != null && !home.isEmpty()) {
            roots.add(Path.of(home));
        }
        roots.add(Path.of("/usr/local/cuda"));
        Path ptxas = ExternalTools.findTool("ptxas", null);
        if (ptxas != null) {
            roots.add(ptxas.toAbsolutePath().getParent().getParent());
        }
        for (Path r : roots) {
            Path p = r.resolve("nvvm/libdevice/libdevice.10.bc");
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        return null;
    }

    private ObjectAttr ptxObject(Operation module, byte[] ptx,
            ObjectFormat format, Map<String, Attribute> props, KernelOptions options) {
        if (options.ptxas() != null && (!Files.isExecutable(options.ptxas()) || Files.isDirectory(options.ptxas()))) {
            throw new MgpuException(module.knownLocation(), "Invalid ptxas (must be an executable file): "
                    + options.ptxas());
        }
        Path ptxas = ExternalTools.findTool("ptxas", options.ptxas());
        if (ptxas == null) {
            options.notes().accept(ExternalTools.location(module) + ": note: ptxas not found (--ptxas, $CUDA_HOME/bin or PATH);"
                    + (format == ObjectFormat.ASSEMBLY ? " no resource usage for " + name()
                    : " embedding PTX for " + name() + ", which the driver compiles when it loads it"));
            return object(ObjectFormat.ASSEMBLY, props, ptx);
        }
        String sm = chip();
        Path fatbinaryTool = format == ObjectFormat.FATBIN ? ExternalTools.findTool("fatbinary",
                ptxas.getParent().resolve("fatbinary")) : null;
        // What was made before for the same PTX, tools and arguments, unless the run looks at what ptxas does.
        boolean cached = format != ObjectFormat.ASSEMBLY && !options.resourceUsage() && options.saveTemps() == null
                && !ExternalTools.showing();
        List<String> arguments = new ArrayList<>(List.of("-arch=" + sm));
        arguments.addAll(ptxasArguments(options));
        String key = cached ? CubinCache.key(ptx, java.util.Arrays.asList(ptxas, fatbinaryTool), arguments, format)
                : null;
        CubinCache.Entry hit = cached ? CubinCache.get(key) : null;
        if (hit != null) {
            return object(hit.format(), props, hit.bytes());
        }
        ObjectAttr made = assemble(module, ptx, format, props, options, ptxas, fatbinaryTool);
        if (cached) {
            CubinCache.put(key, new CubinCache.Entry(made.format(), made.object().bytes()));
        }
        return made;
    }

    /** Runs ptxas (and fatbinary, when given) on {@code ptx}. */
    private ObjectAttr assemble(Operation module, byte[] ptx, ObjectFormat format, Map<String, Attribute> props,
            KernelOptions options, Path ptxas, Path fatbinary) {
        String sm = chip();
        Path dir = ExternalTools.tempDir(module);
        try {
            Path in = dir.resolve("kernels.ptx");
            Path cubin = dir.resolve("kernels.cubin");
            Files.write(in, ptx);
            List<String> command = new ArrayList<>(List.of(ptxas.toString(), "-arch=" + sm));
            command.addAll(ptxasArguments(options));
            if (options.resourceUsage()) {
                // A run of its own: -v is recorded in the cubin, which must be as it is without the report.
                List<String> verbose = new ArrayList<>(command);
                verbose.addAll(List.of("-v", in.toString(), "-o", dir.resolve("report.cubin").toString()));
                Inspection.report(module, this, options, ResourceUsage.ptxas(ExternalTools.run(module, verbose,
                        "ptxas")));
            }
            if (format == ObjectFormat.ASSEMBLY) {
                return object(format, props, ptx);
            }
            command.addAll(List.of(in.toString(), "-o", cubin.toString()));
            ExternalTools.run(module, command, "ptxas");
            if (format == ObjectFormat.FATBIN) {
                Inspection.keep(module, this, options, "cubin", Files.readAllBytes(cubin));
            }
            if (fatbinary == null) {
                return object(ObjectFormat.BINARY, props, Files.readAllBytes(cubin));
            }
            Path fat = dir.resolve("kernels.fatbin");
            String arch = sm.startsWith("sm_") ? sm.substring(3) : sm;
            ExternalTools.run(module, List.of(fatbinary.toString(), "-64", "--create", fat.toString(),
                    "--image3=kind=elf,sm=" + arch + ",file=" + cubin, "--image3=kind=ptx,sm=" + arch + ",file=" + in),
                    "fatbinary");
            return object(ObjectFormat.FATBIN, props, Files.readAllBytes(fat));
        } catch (IOException e) {
            throw new MgpuException(module.knownLocation(), "Invalid temporary files for ptxas (must be writable): "
                    + e.getMessage());
        } finally {
            ExternalTools.deleteTree(dir);
        }
    }

    // ------------------------------------------------------------------ what the back end cannot take

    /**
     * Whether {@code name} is a PTX identifier: a letter, {@code _} or {@code $}, then letters, digits,
     * {@code _} and {@code $}. Read by hand, not with a regular expression: a run's first pattern costs some
     * 2 ms of its start.
     */
    static boolean isPtxName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean letter = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '$';
            if (!letter && !(i > 0 && c >= '0' && c <= '9')) {
                return false;
            }
        }
        return true;
    }

    /** The most bytes of a kernel's parameters that the CUDA driver takes: 32,764 from Volta (sm_70) on, else 4,096. */
    long maxParameterBytes() {
        String chip = chip();
        if (!chip.startsWith("sm_")) {
            return 4096;
        }
        // The number after sm_, without a suffix (sm_90a).
        int end = 3;
        while (end < chip.length() && chip.charAt(end) >= '0' && chip.charAt(end) <= '9') {
            end++;
        }
        try {
            return Integer.parseInt(chip, 3, end, 10) >= 70 ? 32764 : 4096;
        } catch (NumberFormatException e) {
            return 4096;
        }
    }

    /**
     * A symbol that keeps its name in the PTX (a kernel, a declaration) must be a PTX identifier: the back end
     * renames only module-internal ones and ends the process on others. Integer parameters wider than 64 bits
     * other than i128 end it too, as do kernel parameters past the driver's limit.
     */
    @Override
    public void checkDeclaration(ModuleTranslation t, Operation op, String name, List<LLVMTypeRef> params,
            boolean kernel, boolean declaration) {
        if (!name.startsWith("llvm.")) {
            // LLVM's intrinsics are never named in PTX.
            checkSymbolName(op, name, !(kernel || declaration));
        }
        for (LLVMTypeRef p : params) {
            if (LLVMGetTypeKind(p) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(p) > 64
                    && LLVMGetIntTypeWidth(p) != 128 && CodeGeneration.checksOn()) {
                throw ModuleTranslation.error(op, "Invalid parameter type for " + name() + " (must be an integer of"
                        + " at most 64 bits, or i128): i" + LLVMGetIntTypeWidth(p));
            }
        }
        long bytes = kernel ? parameterBytes(t, params) : 0;
        if (bytes > maxParameterBytes()) {
            throw ModuleTranslation.error(op, "Invalid kernel parameters for " + name() + " (must be at most "
                    + maxParameterBytes() + " bytes, the CUDA driver's limit): " + bytes + " bytes");
        }
    }

    /** The back end renames module-local symbols to PTX identifiers, and ends the process on any other. */
    @Override
    public void checkSymbolName(Operation op, String name, boolean local) {
        if (!local && !isPtxName(name)) {
            throw ModuleTranslation.error(op, "Invalid symbol name for " + name() + " (must be a PTX identifier:"
                    + " letters, digits, _ and $, not starting with a digit): @" + name);
        }
    }

    /** The back end has no conversion between floats and integers of more than 64 bits. */
    @Override
    public void checkCast(Operation op, String kind, dev.mgpu.ir.Type from, dev.mgpu.ir.Type to) {
        if (!kind.equals("sitofp") && !kind.equals("uitofp") && !kind.equals("fptosi") && !kind.equals("fptoui")) {
            return;
        }
        dev.mgpu.ir.Type integer = kind.endsWith("tofp") ? from : to;
        if (integer instanceof dev.mgpu.ir.Type.IntegerType i && i.width() > 64 && CodeGeneration.checksOn()) {
            throw ModuleTranslation.error(op, "Invalid " + op.name() + " for " + name() + " (must convert an integer"
                    + " of at most 64 bits): " + integer);
        }
    }
}
