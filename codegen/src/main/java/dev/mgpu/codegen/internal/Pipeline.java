package dev.mgpu.codegen.internal;

import dev.mgpu.codegen.internal.llvm.Targets;
import dev.mgpu.codegen.internal.translate.Ir;
import dev.mgpu.codegen.internal.translate.ModuleTranslation;
import static org.bytedeco.llvm.global.LLVM.LLVMDisposeMessage;
import static org.bytedeco.llvm.global.LLVM.LLVMGetDataLayoutStr;
import static org.bytedeco.llvm.global.LLVM.LLVMReturnStatusAction;
import static org.bytedeco.llvm.global.LLVM.LLVMVerifyModule;

import dev.mgpu.codegen.CodegenOptions;
import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.KernelOptions;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.NativeModule;
import dev.mgpu.codegen.PhaseListener;
import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.mlir.MlirPrinter;
import dev.mgpu.verify.Verifier;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.bytedeco.javacpp.BytePointer;

/**
 * The one owner of a translation's order. Every output goes through the same steps, each once and in this
 * order: resolve embedded blobs and verify the model; for LLVM outputs, create the LLVM module and set its
 * target, translate into it, and run LLVM's verifier; then emit. A model with any error stops before the
 * first native call, and no caller can skip or repeat a step.
 *
 * <p>MLIR output prints the model as it was given: its {@code @file:NAME} references stay references.
 */
public final class Pipeline {
    private final LoadStrategy strategy;
    private final String triple;
    private final Map<String, byte[]> embeds;
    private final PhaseListener phases;
    private final MlirPrinter.Options printing;
    private final CodegenOptions codegen;
    private final KernelOptions kernels;

    /**
     * A pipeline for one set of options: the load strategy, the target triple (null for the host), blobs
     * to embed by name, a listener for phase times, how MLIR output is printed, and how host code is
     * generated.
     */
    public Pipeline(LoadStrategy strategy, String triple, Map<String, byte[]> embeds, PhaseListener phases,
            MlirPrinter.Options printing, CodegenOptions codegen, KernelOptions kernels) {
        this.kernels = kernels;
        this.strategy = strategy;
        this.triple = triple;
        this.embeds = embeds;
        this.phases = phases;
        this.printing = printing;
        this.codegen = codegen;
    }

    /** Runs every step up to a module that LLVM's verifier has passed; the caller owns and closes it. */
    public NativeModule translate(Operation module) {
        // The steps that rewrite the model (embedded blobs, outlining, kernels to binaries) work on a copy: the
        // caller's model stays as it was, and threads that translate one model share only reads of it.
        Operation root = rewritten(module) ? Ir.deepCopy(module) : module;
        check(root, true);
        if (codegen.entryPoint() != null) {
            EntryPoint.check(root, codegen.entryPoint());
        }
        compileKernels(root);
        long t0 = System.nanoTime();
        NativeModule nm = configuredModule(root);
        try {
            ModuleTranslation.translate(root, nm, strategy, codegen.debugInfo(), Translators.TABLE,
                    kernels.barePointers());
            CInterfaces.add(root, nm.module());
            if (codegen.entryPoint() != null) {
                EntryPoint.add(nm.module(), codegen.entryPoint());
            }
            Targets.annotate(nm, codegen);
            long t1 = System.nanoTime();
            phases.phaseDone(PhaseListener.TRANSLATE, t1 - t0);
            verifyLlvm(nm, root);
            phases.phaseDone(PhaseListener.LLVM_VERIFY, System.nanoTime() - t1);
            return nm;
        } catch (RuntimeException e) {
            nm.close();
            throw e;
        }
    }

    /** Whether translation would rewrite {@code root}: blobs to embed, launches to outline, kernels to compile. */
    private boolean rewritten(Operation root) {
        if (root.regions().size() != 1 || root.region(0).isEmpty()) {
            return false; // not a module: the verifier says so
        }
        return !embeds.isEmpty() || KernelOutlining.needed(root) || KernelCompiler.needed(root)
                || kernels.attachTargets() && KernelOutlining.lacksTargets(root);
    }

    /**
     * Compiles the kernels of every {@code gpu.module} that has bodies and targets, and replaces each with
     * a {@code gpu.binary} of the same name, in the model itself (as {@code gpu-module-to-binary} rewrites
     * the module it runs on); does nothing when there is none. The model has been verified.
     */
    private void compileKernels(Operation root) {
        outlineKernels(root);
        if (KernelCompiler.needed(root)) {
            long t0 = System.nanoTime();
            KernelCompiler.checkCpuTriples(root, triple);
            KernelCompiler.compile(root, kernels, codegen.debugInfo());
            phases.phaseDone(PhaseListener.KERNELS, System.nanoTime() - t0);
        }
    }

    /** Outlines the {@code gpu.launch} bodies of {@code root} into kernels, when there are any. */
    private void outlineKernels(Operation root) {
        if (kernels.attachTargets()) {
            KernelOutlining.attachTargets(root, kernels.targets());
        }
        if (KernelOutlining.needed(root)) {
            KernelOutlining.outline(root, kernels.targets());
            List<Diagnostic> errors = Verifier.verify(root);
            if (!errors.isEmpty()) {
                throw new MgpuException(errors);
            }
        }
    }

    /**
     * Verifies {@code root}, then outlines its {@code gpu.launch} bodies into kernels; for output of the
     * module with its kernels outlined ({@code --emit=mlir --outline-kernels}).
     */
    public void outlineKernelsOnly(Operation root) {
        check(root, false);
        outlineKernels(root);
    }

    /**
     * Verifies {@code root}, then compiles its kernels as translation does; for output of the module with
     * its binaries in place ({@code --emit=mlir --compile-kernels}).
     */
    public void compileKernelsOnly(Operation root) {
        check(root, false);
        compileKernels(root);
    }

    /** Runs every step and returns the output; the same bytes as the other {@code emit} methods write. */
    public byte[] emit(Operation root, EmitKind kind) {
        checkKind(kind);
        if (kind == EmitKind.MLIR) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            print(root, out);
            return out.toByteArray();
        }
        try (NativeModule nm = translate(root)) {
            long t0 = System.nanoTime();
            byte[] result = Targets.emit(nm, kind, tripleOf(root), codegen, root);
            phases.phaseDone(emitPhase(kind), System.nanoTime() - t0);
            return result;
        }
    }

    /** Runs every step and writes the output to {@code out}, which stays open. */
    public void emit(Operation root, EmitKind kind, OutputStream out) {
        checkKind(kind);
        if (kind == EmitKind.MLIR) {
            print(root, out);
            return;
        }
        byte[] result = emit(root, kind);
        try {
            out.write(result);
        } catch (IOException e) {
            throw new MgpuException(root.location(), "Invalid output (must be writable): " + e.getMessage());
        }
    }

    /**
     * Runs every step and writes the output to {@code file}; large outputs go from LLVM's native memory to
     * the file without a copy into Java arrays.
     */
    public void emit(Operation root, EmitKind kind, Path file) {
        checkKind(kind);
        if (kind == EmitKind.MLIR) {
            try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
                print(root, out);
            } catch (IOException e) {
                throw new MgpuException(root.location(), "Invalid output (must be writable): " + e.getMessage());
            }
            return;
        }
        try (NativeModule nm = translate(root)) {
            long t0 = System.nanoTime();
            Targets.emitToFile(nm, kind, tripleOf(root), codegen, root, file);
            phases.phaseDone(emitPhase(kind), System.nanoTime() - t0);
        }
    }

    /**
     * Emits a module that was built elsewhere (a caller's own, or one {@link #translate} returned) as
     * {@code kind} (llvm, bc, obj or asm). LLVM's verifier runs first, so a broken module is an
     * {@link MgpuException}, not a crash; a module without a triple gets this pipeline's (or the host's)
     * and its data layout.
     */
    public byte[] emitModule(NativeModule nm, EmitKind kind) {
        if (kind == EmitKind.MLIR || kind == EmitKind.EXE) {
            throw new IllegalArgumentException("Invalid emit kind for an LLVM module (must be llvm, bc, obj or asm): "
                    + kind.option());
        }
        Operation where = dev.mgpu.dialect.builtin.Builtin.ModuleOp.create(Location.UNKNOWN).op();
        verifyLlvm(nm, where);
        BytePointer t = org.bytedeco.llvm.global.LLVM.LLVMGetTarget(nm.module());
        String own = t == null ? "" : t.getString();
        if (own.isEmpty()) {
            Targets.configure(nm, triple == null ? null : Targets.normalize(triple), codegen, where);
            own = triple == null ? Targets.hostTriple() : Targets.normalize(triple);
        }
        long t0 = System.nanoTime();
        Targets.annotate(nm, codegen);
        byte[] result = Targets.emit(nm, kind, own, codegen, where);
        phases.phaseDone(emitPhase(kind), System.nanoTime() - t0);
        return result;
    }

    private void print(Operation root, OutputStream out) {
        check(root, false);
        long t0 = System.nanoTime();
        MlirPrinter.print(root, out, printing);
        phases.phaseDone(PhaseListener.PRINT, System.nanoTime() - t0);
    }

    private static String emitPhase(EmitKind kind) {
        return kind == EmitKind.OBJ || kind == EmitKind.ASM ? PhaseListener.CODEGEN : PhaseListener.EMIT;
    }

    /**
     * Resolves embedded blobs (for translation only) and verifies; throws every error of both at once.
     */
    private void check(Operation root, boolean resolveEmbeds) {
        long t0 = System.nanoTime();
        List<Diagnostic> errors = new ArrayList<>();
        if (resolveEmbeds) {
            errors.addAll(EmbedRewrite.apply(root, embeds,
                    triple == null ? dev.mgpu.codegen.internal.llvm.Targets.hostTriple() : Targets.normalize(triple)));
        }
        errors.addAll(Verifier.verify(root));
        phases.phaseDone(PhaseListener.VERIFY, System.nanoTime() - t0);
        if (!errors.isEmpty()) {
            throw new MgpuException(errors);
        }
    }

    /** Refuses an executable before any step runs: linking belongs to the CLI. */
    private static void checkKind(EmitKind kind) {
        if (kind == EmitKind.EXE) {
            throw new IllegalArgumentException("Invalid emit kind (must be mlir, llvm, bc, obj or asm): exe links"
                    + " through the CLI");
        }
    }

    /**
     * The triple to emit for: the option's, else the module's {@code llvm.target_triple}, else the host's
     * (null). A module that states one triple cannot be emitted for another.
     */
    private String tripleOf(Operation root) {
        Attribute a = root.attr("llvm.target_triple");
        if (a == null) {
            // As clang writes a --target it is given: in LLVM's normal form (aarch64-linux-gnu is
            // aarch64-unknown-linux-gnu), so that clang does not warn that the module overrides its triple.
            return triple == null ? null : Targets.normalize(triple);
        }
        if (!(a instanceof Attribute.StringAttr s)) {
            throw new MgpuException(root.location(), "Invalid llvm.target_triple (must be a string): " + a);
        }
        if (triple != null && !Targets.normalize(triple).equals(Targets.normalize(s.value()))) {
            throw new MgpuException(root.location(), "Invalid target triple (must be the module's llvm.target_triple "
                    + s.value() + "): " + triple);
        }
        return s.value();
    }

    /** A new module named after {@code root}, with the target's triple and data layout. */
    private NativeModule configuredModule(Operation root) {
        NativeModule nm = new NativeModule(moduleName(root));
        try {
            Targets.configure(nm, tripleOf(root), codegen, root);
            if (root.attr("llvm.data_layout") instanceof Attribute.StringAttr layout) {
                BytePointer own = LLVMGetDataLayoutStr(nm.module());
                String target = own.getString();
                if (!layout.value().equals(target)) {
                    throw new MgpuException(root.location(), "Invalid llvm.data_layout (must be the data layout of"
                            + " the target, \"" + target + "\"): \"" + layout.value() + "\"");
                }
            }
            return nm;
        } catch (RuntimeException e) {
            nm.close();
            throw e;
        }
    }

    private static void verifyLlvm(NativeModule nm, Operation root) {
        verifyLlvm(nm, root.location(), "Invalid LLVM module (must pass LLVM's verifier): ");
    }

    /** Runs LLVM's verifier on the module; a broken module is {@code message} and LLVM's report. */
    public static void verifyLlvm(NativeModule nm, Location where, String message) {
        BytePointer msg = new BytePointer((BytePointer) null);
        boolean broken = LLVMVerifyModule(nm.module(), LLVMReturnStatusAction, msg) != 0;
        String text = broken ? msg.getString() : null;
        LLVMDisposeMessage(msg);
        if (broken) {
            throw new MgpuException(where, message + text.strip());
        }
    }

    private static String moduleName(Operation root) {
        String n = root.symbolName();
        if (n != null) {
            return n;
        }
        return root.location() instanceof Location.FileLineCol f ? f.file() : "mgpu";
    }
}
