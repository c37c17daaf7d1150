package dev.mgpu.codegen;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.internal.ModuleTranslation;
import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.mlir.MlirParser;
import dev.mgpu.verify.Verifier;
import java.util.List;
import java.util.Map;
import org.bytedeco.javacpp.BytePointer;

/**
 * The library's front door: parse, verify, translate, emit. Every method is safe to call from several
 * threads at once; each translation has its own LLVM context.
 *
 * <pre>{@code
 * Operation module = Mgpu.parse(Files.readAllBytes(path), path.toString());
 * byte[] object = Mgpu.emit(module, EmitKind.OBJ, Mgpu.Options.DEFAULT);
 * }</pre>
 */
public final class Mgpu {
    private Mgpu() {
    }

    /**
     * Hears how long each phase of a translation took: {@code verified}, {@code translated} (the whole
     * translation, verification and LLVM's verifier included), and {@code emitted} when writing a file.
     */
    @FunctionalInterface
    public interface PhaseListener {
        PhaseListener NONE = (phase, nanos) -> { };

        void phaseDone(String phase, long nanos);
    }

    /**
     * Translation options: the load strategy, the target triple (null for the host), blobs to embed by
     * name (an object whose blob is the text {@code @file:NAME} gets the bytes of {@code embeds.get(NAME)}),
     * and a listener for phase times.
     */
    public record Options(LoadStrategy loadStrategy, String triple, Map<String, byte[]> embeds, PhaseListener phases) {
        public static final Options DEFAULT = new Options(LoadStrategy.LAZY, null, Map.of());

        public Options {
            if (loadStrategy == null) {
                loadStrategy = LoadStrategy.LAZY;
            }
            embeds = embeds == null ? Map.of() : Map.copyOf(embeds);
            phases = phases == null ? PhaseListener.NONE : phases;
        }

        public Options(LoadStrategy loadStrategy, String triple, Map<String, byte[]> embeds) {
            this(loadStrategy, triple, embeds, PhaseListener.NONE);
        }

        public Options withLoadStrategy(LoadStrategy s) {
            return new Options(s, triple, embeds, phases);
        }

        public Options withPhases(PhaseListener listener) {
            return new Options(loadStrategy, triple, embeds, listener);
        }
    }

    /**
     * Starts loading the native LLVM library on a background thread, so that a caller that reads and
     * parses its input first overlaps the two (loading takes about a tenth of a second); whatever needs LLVM
     * later waits for it. Calling it more than once, or not at all, is fine.
     */
    public static void preloadNative() {
        Llvm.loadInBackground();
    }

    /** Parses MLIR text; throws {@link MgpuException} with file:line:col on bad input. */
    public static Operation parse(byte[] text, String fileName) {
        return MlirParser.parse(text, fileName);
    }

    /** Every problem the verifier finds; empty when the module is valid. */
    public static List<Diagnostic> verify(Operation module) {
        return Verifier.verify(module);
    }

    /**
     * Verifies, then translates into a new LLVM module, which LLVM's verifier has passed. The caller owns
     * and closes the result. Nothing reaches native code unless the model verified.
     */
    public static NativeModule translate(Operation module, Options options) {
        long t0 = System.nanoTime();
        NativeModule nm = ModuleTranslation.translate(module, options.loadStrategy(), options.embeds(),
                options.phases(), m -> {
            NativeModule fresh = new NativeModule(moduleName(m));
            try {
                Targets.configure(fresh, options.triple(), m);
                return fresh;
            } catch (RuntimeException e) {
                fresh.close();
                throw e;
            }
        });
        try {
            BytePointer msg = new BytePointer((BytePointer) null);
            if (LLVMVerifyModule(nm.module(), LLVMReturnStatusAction, msg) != 0) {
                String text = msg.getString();
                LLVMDisposeMessage(msg);
                throw new MgpuException(module.location(), "Invalid LLVM module (must pass LLVM's verifier): "
                        + text.strip());
            }
            LLVMDisposeMessage(msg);
            options.phases().phaseDone("translated", System.nanoTime() - t0);
            return nm;
        } catch (RuntimeException e) {
            nm.close();
            throw e;
        }
    }

    /** Translates and emits in one step; the result is deterministic for a given input and options. */
    public static byte[] emit(Operation module, EmitKind kind, Options options) {
        if (kind == EmitKind.MLIR) {
            return dev.mgpu.mlir.MlirPrinter.print(module).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
        if (kind == EmitKind.EXE) {
            throw new IllegalArgumentException("Invalid emit kind (must be mlir, llvm, bc, obj or asm): exe links"
                    + " through the CLI");
        }
        try (NativeModule nm = translate(module, options)) {
            return Targets.emit(nm, kind, options.triple(), module);
        }
    }

    /** Translates and writes the result to {@code file}; the same bytes as {@link #emit}. */
    public static void emit(Operation module, EmitKind kind, Options options, java.nio.file.Path file) {
        if (kind == EmitKind.MLIR || kind == EmitKind.EXE) {
            try {
                java.nio.file.Files.write(file, emit(module, kind, options));
            } catch (java.io.IOException e) {
                throw new MgpuException(module.location(), "Invalid output (must be writable): " + e.getMessage());
            }
            return;
        }
        try (NativeModule nm = translate(module, options)) {
            long t0 = System.nanoTime();
            Targets.emitToFile(nm, kind, options.triple(), module, file);
            options.phases().phaseDone("emitted", System.nanoTime() - t0);
        }
    }

    private static String moduleName(Operation module) {
        String n = module.symbolName();
        if (n != null) {
            return n;
        }
        return module.location() instanceof dev.mgpu.ir.Location.FileLineCol f ? f.file() : "mgpu";
    }
}
