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
     * {@code @file:NAME} holds the bytes of {@code embeds.get(NAME)}, in a copy of the model; a reference to
     * a name missing from {@code embeds} is an error located at its binary. MLIR output prints the model as
     * it was given.
     *
     * @param loadStrategy how the host code loads device binaries; null means {@link LoadStrategy#LAZY}
     * @param triple the target triple of the host code, or null for the host's
     * @param embeds blobs by name, for objects whose blob is {@code @file:NAME}; null means none
     * @param phases the listener told how long each phase takes; null means {@link PhaseListener#NONE}
     * @param printing how MLIR output is printed; null means {@link MlirPrinter.Options#DEFAULT}
     * @param codegen how host code is generated; null means {@link CodegenOptions#DEFAULT}
     */
    public record Options(LoadStrategy loadStrategy, String triple, Map<String, byte[]> embeds, PhaseListener phases,
            MlirPrinter.Options printing, CodegenOptions codegen, KernelOptions kernels) {
        /** Lazy loading for the host, with nothing embedded. */
        public static final Options DEFAULT = new Options(LoadStrategy.LAZY, null, Map.of());

        /**
         * Fills in defaults for the null components.
         *
         * @param loadStrategy how the host code loads device binaries, or null for {@link LoadStrategy#LAZY}
         * @param triple the target triple of the host code, or null for the host's
         * @param embeds blobs by name, copied, or null for none
         * @param phases the phase listener, or null for {@link PhaseListener#NONE}
         * @param printing how MLIR output is printed, or null for the default
         * @param codegen how host code is generated, or null for the default
         * @param kernels how the kernels of {@code gpu.module}s are compiled, or null for the default
         */
        public Options {
            if (loadStrategy == null) {
                loadStrategy = LoadStrategy.LAZY;
            }
            embeds = embeds == null ? Map.of() : Map.copyOf(embeds);
            phases = phases == null ? PhaseListener.NONE : phases;
            printing = printing == null ? MlirPrinter.Options.DEFAULT : printing;
            codegen = codegen == null ? CodegenOptions.DEFAULT : codegen;
            kernels = kernels == null ? KernelOptions.DEFAULT : kernels;
        }

        /**
         * Options that compile kernels with the defaults.
         *
         * @param loadStrategy how the host code loads device binaries, or null for {@link LoadStrategy#LAZY}
         * @param triple the target triple of the host code, or null for the host's
         * @param embeds blobs by name, copied, or null for none
         * @param phases the phase listener, or null for {@link PhaseListener#NONE}
         * @param printing how MLIR output is printed, or null for the default
         * @param codegen how host code is generated, or null for the default
         */
        public Options(LoadStrategy loadStrategy, String triple, Map<String, byte[]> embeds, PhaseListener phases,
                MlirPrinter.Options printing, CodegenOptions codegen) {
            this(loadStrategy, triple, embeds, phases, printing, codegen, KernelOptions.DEFAULT);
        }

        /**
         * {@return these options with other kernel compilation options}
         *
         * @param k how kernels are compiled
         */
        public Options withKernels(KernelOptions k) {
            return new Options(loadStrategy, triple, embeds, phases, printing, codegen, k);
        }

        /**
         * Options that generate code with the defaults.
         *
         * @param loadStrategy how the host code loads device binaries, or null for {@link LoadStrategy#LAZY}
         * @param triple the target triple of the host code, or null for the host's
         * @param embeds blobs by name, copied, or null for none
         * @param phases the phase listener, or null for {@link PhaseListener#NONE}
         * @param printing how MLIR output is printed, or null for the default
         */
        public Options(LoadStrategy loadStrategy, String triple, Map<String, byte[]> embeds, PhaseListener phases,
                MlirPrinter.Options printing) {
            this(loadStrategy, triple, embeds, phases, printing, CodegenOptions.DEFAULT);
        }

        /**
         * Options that print MLIR in the default form.
         *
         * @param loadStrategy how the host code loads device binaries, or null for {@link LoadStrategy#LAZY}
         * @param triple the target triple of the host code, or null for the host's
         * @param embeds blobs by name, copied, or null for none
         * @param phases the phase listener, or null for {@link PhaseListener#NONE}
         */
        public Options(LoadStrategy loadStrategy, String triple, Map<String, byte[]> embeds, PhaseListener phases) {
            this(loadStrategy, triple, embeds, phases, MlirPrinter.Options.DEFAULT);
        }

        /**
         * Options that print MLIR in the default form and report no phases.
         *
         * @param loadStrategy how the host code loads device binaries, or null for {@link LoadStrategy#LAZY}
         * @param triple the target triple of the host code, or null for the host's
         * @param embeds blobs by name, copied, or null for none
         */
        public Options(LoadStrategy loadStrategy, String triple, Map<String, byte[]> embeds) {
            this(loadStrategy, triple, embeds, PhaseListener.NONE);
        }

        /**
         * These options with another load strategy.
         *
         * @param s the load strategy, or null for {@link LoadStrategy#LAZY}
         * @return the new options
         */
        public Options withLoadStrategy(LoadStrategy s) {
            return new Options(s, triple, embeds, phases, printing, codegen, kernels);
        }

        /**
         * These options with another phase listener.
         *
         * @param listener the phase listener, or null for {@link PhaseListener#NONE}
         * @return the new options
         */
        public Options withPhases(PhaseListener listener) {
            return new Options(loadStrategy, triple, embeds, listener, printing, codegen, kernels);
        }

        /**
         * These options with other MLIR print options.
         *
         * @param p the MLIR print options, or null for the default
         * @return the new options
         */
        public Options withPrinting(MlirPrinter.Options p) {
            return new Options(loadStrategy, triple, embeds, phases, p, codegen, kernels);
        }

        /**
         * These options with other code generation options.
         *
         * @param c the code generation options, or null for the default
         * @return the new options
         */
        public Options withCodegen(CodegenOptions c) {
            return new Options(loadStrategy, triple, embeds, phases, printing, c, kernels);
        }

        private Pipeline pipeline() {
            return new Pipeline(loadStrategy, triple, embeds, phases, printing, codegen, kernels);
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

    /**
     * The version of the LLVM that mgpu generates code with, such as {@code 20.1.7}; loads LLVM.
     *
     * @return LLVM's major, minor and patch version, joined by dots
     */
    public static String llvmVersion() {
        Llvm.load();
        int[] major = new int[1];
        int[] minor = new int[1];
        int[] patch = new int[1];
        org.bytedeco.llvm.global.LLVM.LLVMGetVersion(major, minor, patch);
        return major[0] + "." + minor[0] + "." + patch[0];
    }

    /**
     * Runs {@code body} (calls of this class) with each command of an external tool (ptxas, fatbinary, lld)
     * that it would start given to {@code shown} instead, as {@code clang -###} shows them; the objects
     * that such a command would have made are empty.
     *
     * @param shown takes each command line, program first
     * @param body what to run
     * @param <T> what {@code body} returns
     * @return what {@code body} returned
     */
    public static <T> T showingExternalCommands(java.util.function.Consumer<List<String>> shown,
            java.util.function.Supplier<T> body) {
        return dev.mgpu.codegen.internal.llvm.ExternalTools.showing(shown, body);
    }

    /**
     * The chips each back end compiles kernels for, as LLVM's tables name them: {@code nvvm} (NVPTX),
     * {@code rocdl} (AMDGPU) and {@code cpu} (the host's CPUs); each key maps to its triple and chips.
     *
     * @return back end name to its triple and chips, in that order
     * @throws MgpuException if a table cannot be read
     */
    public static Map<String, Map.Entry<String, List<String>>> targetChips() {
        Llvm.load();
        Map<String, Map.Entry<String, List<String>>> out = new java.util.LinkedHashMap<>();
        String host = dev.mgpu.codegen.internal.llvm.Targets.hostTriple();
        String[][] backEnds = {{"nvvm", "nvptx64-nvidia-cuda"}, {"rocdl", "amdgcn-amd-amdhsa"}, {"cpu", host}};
        for (String[] b : backEnds) {
            out.put(b[0], Map.entry(b[1], dev.mgpu.codegen.internal.llvm.TargetCpus.cpus(b[1],
                    dev.mgpu.ir.Location.UNKNOWN)));
        }
        return out;
    }

    /**
     * Emits an LLVM module as IR text, bitcode, an object or assembly: one that {@link #translate} returned,
     * perhaps changed since, or a caller's own, built in its own context. LLVM's verifier runs first, so a
     * broken module is an {@link MgpuException} and never a crash; a module without a target triple gets
     * the options' (or the host's) with its data layout. The module stays the caller's.
     *
     * @param module the module to emit; it stays open
     * @param kind what to emit
     * @param options the target triple and code generation options
     * @return the emitted bytes
     * @throws MgpuException if LLVM's verifier rejects the module or LLVM cannot emit it
     */
    public static byte[] emit(NativeModule module, EmitKind kind, Options options) {
        return options.pipeline().emitModule(module, kind);
    }

    /**
     * {@link #emit(NativeModule, EmitKind, Options)} for a module the caller owns as a raw reference.
     *
     * @param module the module, which stays the caller's
     * @param kind what to emit
     * @param options the target triple and code generation options
     * @return the emitted bytes
     * @throws MgpuException if LLVM's verifier rejects the module or LLVM cannot emit it
     */
    public static byte[] emit(org.bytedeco.llvm.LLVM.LLVMModuleRef module, EmitKind kind, Options options) {
        return emit(NativeModule.borrow(module), kind, options);
    }

    /**
     * Parses MLIR text; throws {@link MgpuException} with file:line:col on bad input.
     *
     * @param text the MLIR text, as UTF-8
     * @param fileName the file name locations carry
     * @return the top-level operation
     * @throws MgpuException if the text is not valid MLIR
     */
    public static Operation parse(byte[] text, String fileName) {
        return MlirParser.parse(text, fileName);
    }

    /**
     * Compiles the kernels of every {@code gpu.module} that has function bodies and targets
     * ({@code #nvvm.target}, {@code #rocdl.target}) into one object per target, and replaces the module
     * with a {@code gpu.binary} of the same name, in place, as upstream's {@code gpu-module-to-binary} does.
     * Translation and emission do the same step themselves; this is for a caller that wants the module with
     * its binaries, such as {@code --emit=mlir --compile-kernels}.
     *
     * @param module a {@code builtin.module}; verified first
     * @param options the kernel options ({@link Options#kernels()}) apply
     * @throws MgpuException if the module does not verify, or a kernel cannot be compiled for a target
     */
    public static void compileKernels(Operation module, Options options) {
        DeepStack.call(() -> {
            options.pipeline().compileKernelsOnly(module);
            return null;
        });
    }

    /**
     * Outlines every {@code gpu.launch} of the module into a kernel of its own {@code gpu.module} (for the
     * targets of {@link KernelOptions#targets()}) and a {@code gpu.launch_func}, in place, as upstream's
     * {@code gpu-kernel-outlining} does. Translation and {@link #compileKernels} do the same step themselves.
     *
     * @param module a {@code builtin.module}; verified first
     * @param options the kernel options ({@link Options#kernels()}) apply
     * @throws MgpuException if the module does not verify
     */
    public static void outlineKernels(Operation module, Options options) {
        DeepStack.call(() -> {
            options.pipeline().outlineKernelsOnly(module);
            return null;
        });
    }

    /**
     * Every problem the verifier finds; empty when the module is valid.
     *
     * @param module the operation to verify, usually a {@code builtin.module}
     * @return the diagnostics, in the order found
     */
    public static List<Diagnostic> verify(Operation module) {
        return DeepStack.call(() -> Verifier.verify(module));
    }

    /**
     * Verifies, then translates into a new LLVM module, which LLVM's verifier has passed. The caller owns
     * and closes the result. The model is not changed: the steps that rewrite one (embedded blobs, outlined
     * launches, kernels compiled into binaries) work on a copy, so threads may translate one model at once.
     *
     * @param module the module to translate
     * @param options the translation options
     * @return the new LLVM module
     * @throws MgpuException if the module has an error or cannot be translated
     */
    public static NativeModule translate(Operation module, Options options) {
        return DeepStack.call(() -> options.pipeline().translate(module));
    }

    /**
     * Verifies, translates and emits in one step ({@code mlir} only verifies and prints); the result is
     * deterministic for a given input and options.
     *
     * @param module the module to translate
     * @param kind what to emit
     * @param options the translation options
     * @return the emitted bytes
     * @throws MgpuException if the module has an error or cannot be translated or emitted
     */
    public static byte[] emit(Operation module, EmitKind kind, Options options) {
        return DeepStack.call(() -> options.pipeline().emit(module, kind));
    }

    /**
     * Like {@link #emit(Operation, EmitKind, Options)}, writing to {@code out}, which stays open.
     *
     * @param module the module to translate
     * @param kind what to emit
     * @param options the translation options
     * @param out where to write the bytes
     * @throws MgpuException if the module has an error, cannot be translated or emitted, or {@code out}
     *         cannot be written
     */
    public static void emit(Operation module, EmitKind kind, Options options, OutputStream out) {
        DeepStack.run(() -> options.pipeline().emit(module, kind, out));
    }

    /**
     * Like {@link #emit(Operation, EmitKind, Options)}, writing the same bytes to {@code file}.
     *
     * @param module the module to translate
     * @param kind what to emit
     * @param options the translation options
     * @param file the file to write, replaced if it exists
     * @throws MgpuException if the module has an error, cannot be translated or emitted, or {@code file}
     *         cannot be written
     */
    public static void emit(Operation module, EmitKind kind, Options options, Path file) {
        DeepStack.run(() -> options.pipeline().emit(module, kind, file));
    }
}
