package dev.mgpu.codegen;

import dev.mgpu.codegen.internal.Pipeline;
import dev.mgpu.ir.DeepStack;
import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.mlir.MlirParser;
import dev.mgpu.mlir.MlirPrinter;
import dev.mgpu.verify.Verifier;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The library's front door: parse, verify, translate, emit. Every method is safe to call from several
 * threads at once; each translation has its own LLVM context.
 *
 * <pre>{@code
 * Operation module = Mgpu.parse(Files.readAllBytes(path), path.toString());
 * byte[] object = Mgpu.emit(module, EmitKind.OBJ, Mgpu.Options.DEFAULT);
 * }</pre>
 *
 * <p>Translating and emitting verify first: a model with any error comes back as an {@link MgpuException}
 * that carries every diagnostic, and never reaches native code.
 */
public final class Mgpu {
    private Mgpu() {
    }

    /**
     * Translation options: the load strategy, the target triple (null for the host), blobs to embed by
     * name, a listener for phase times, how MLIR output is printed, and how host code is generated.
     *
     * <p>Before translation, every object of a top-level {@code gpu.binary} whose blob is the text
     * {@code @file:NAME} is rewritten in the model to hold the bytes of {@code embeds.get(NAME)}; a
     * reference to a name missing from {@code embeds} is an error located at its binary. MLIR output
     * prints the model as it was given.
     */
    public record Options(LoadStrategy loadStrategy, String triple, Map<String, byte[]> embeds, PhaseListener phases,
            MlirPrinter.Options printing, CodegenOptions codegen) {
        /** Lazy loading for the host, with nothing embedded. */
        public static final Options DEFAULT = new Options(LoadStrategy.LAZY, null, Map.of());

        /** Fills in defaults for the null components. */
        public Options {
            if (loadStrategy == null) {
                loadStrategy = LoadStrategy.LAZY;
            }
            embeds = embeds == null ? Map.of() : Map.copyOf(embeds);
            phases = phases == null ? PhaseListener.NONE : phases;
            printing = printing == null ? MlirPrinter.Options.DEFAULT : printing;
            codegen = codegen == null ? CodegenOptions.DEFAULT : codegen;
        }

        /** Options that generate code with the defaults. */
        public Options(LoadStrategy loadStrategy, String triple, Map<String, byte[]> embeds, PhaseListener phases,
                MlirPrinter.Options printing) {
            this(loadStrategy, triple, embeds, phases, printing, CodegenOptions.DEFAULT);
        }

        /** Options that print MLIR in the default form. */
        public Options(LoadStrategy loadStrategy, String triple, Map<String, byte[]> embeds, PhaseListener phases) {
            this(loadStrategy, triple, embeds, phases, MlirPrinter.Options.DEFAULT);
        }

        /** Options that print MLIR in the default form and report no phases. */
        public Options(LoadStrategy loadStrategy, String triple, Map<String, byte[]> embeds) {
            this(loadStrategy, triple, embeds, PhaseListener.NONE);
        }

        /** These options with another load strategy. */
        public Options withLoadStrategy(LoadStrategy s) {
            return new Options(s, triple, embeds, phases, printing, codegen);
        }

        /** These options with another phase listener. */
        public Options withPhases(PhaseListener listener) {
            return new Options(loadStrategy, triple, embeds, listener, printing, codegen);
        }

        /** These options with other MLIR print options. */
        public Options withPrinting(MlirPrinter.Options p) {
            return new Options(loadStrategy, triple, embeds, phases, p, codegen);
        }

        /** These options with other code generation options. */
        public Options withCodegen(CodegenOptions c) {
            return new Options(loadStrategy, triple, embeds, phases, printing, c);
        }

        private Pipeline pipeline() {
            return new Pipeline(loadStrategy, triple, embeds, phases, printing, codegen);
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

    /** The version of the LLVM that mgpu generates code with, such as {@code 20.1.7}; loads LLVM. */
    public static String llvmVersion() {
        Llvm.load();
        int[] major = new int[1];
        int[] minor = new int[1];
        int[] patch = new int[1];
        org.bytedeco.llvm.global.LLVM.LLVMGetVersion(major, minor, patch);
        return major[0] + "." + minor[0] + "." + patch[0];
    }

    /**
     * Emits an LLVM module as IR text, bitcode, an object or assembly: one that {@link #translate} returned,
     * perhaps changed since, or a caller's own, built in its own context. LLVM's verifier runs first, so a
     * broken module is an {@link MgpuException} and never a crash; a module without a target triple gets
     * the options' (or the host's) with its data layout. The module stays the caller's.
     */
    public static byte[] emit(NativeModule module, EmitKind kind, Options options) {
        return options.pipeline().emitModule(module, kind);
    }

    /** {@link #emit(NativeModule, EmitKind, Options)} for a module the caller owns as a raw reference. */
    public static byte[] emit(org.bytedeco.llvm.LLVM.LLVMModuleRef module, EmitKind kind, Options options) {
        return emit(NativeModule.borrow(module), kind, options);
    }

    /** Parses MLIR text; throws {@link MgpuException} with file:line:col on bad input. */
    public static Operation parse(byte[] text, String fileName) {
        return MlirParser.parse(text, fileName);
    }

    /** Every problem the verifier finds; empty when the module is valid. */
    public static List<Diagnostic> verify(Operation module) {
        return DeepStack.call(() -> Verifier.verify(module));
    }

    /**
     * Verifies, then translates into a new LLVM module, which LLVM's verifier has passed. The caller owns
     * and closes the result.
     */
    public static NativeModule translate(Operation module, Options options) {
        return DeepStack.call(() -> options.pipeline().translate(module));
    }

    /**
     * Verifies, translates and emits in one step ({@code mlir} only verifies and prints); the result is
     * deterministic for a given input and options.
     */
    public static byte[] emit(Operation module, EmitKind kind, Options options) {
        return DeepStack.call(() -> options.pipeline().emit(module, kind));
    }

    /** Like {@link #emit(Operation, EmitKind, Options)}, writing to {@code out}, which stays open. */
    public static void emit(Operation module, EmitKind kind, Options options, OutputStream out) {
        DeepStack.run(() -> options.pipeline().emit(module, kind, out));
    }

    /** Like {@link #emit(Operation, EmitKind, Options)}, writing the same bytes to {@code file}. */
    public static void emit(Operation module, EmitKind kind, Options options, Path file) {
        DeepStack.run(() -> options.pipeline().emit(module, kind, file));
    }
}
