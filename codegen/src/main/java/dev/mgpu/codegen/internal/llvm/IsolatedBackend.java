package dev.mgpu.codegen.internal.llvm;

import static org.bytedeco.llvm.global.LLVM.LLVMAssemblyFile;
import static org.bytedeco.llvm.global.LLVM.LLVMDeleteFunction;
import static org.bytedeco.llvm.global.LLVM.LLVMDeleteGlobal;
import static org.bytedeco.llvm.global.LLVM.LLVMGetFirstFunction;
import static org.bytedeco.llvm.global.LLVM.LLVMGetFirstGlobal;
import static org.bytedeco.llvm.global.LLVM.LLVMGetFirstGlobalAlias;
import static org.bytedeco.llvm.global.LLVM.LLVMGetFirstUse;
import static org.bytedeco.llvm.global.LLVM.LLVMGetNextFunction;
import static org.bytedeco.llvm.global.LLVM.LLVMGetNextGlobal;
import static org.bytedeco.llvm.global.LLVM.LLVMGetPoison;
import static org.bytedeco.llvm.global.LLVM.LLVMReplaceAllUsesWith;
import static org.bytedeco.llvm.global.LLVM.LLVMStripModuleDebugInfo;
import static org.bytedeco.llvm.global.LLVM.LLVMTypeOf;
import static org.bytedeco.llvm.global.LLVM.LLVMDisposeMemoryBuffer;
import static org.bytedeco.llvm.global.LLVM.LLVMDisposeModule;
import static org.bytedeco.llvm.global.LLVM.LLVMParseBitcodeInContext2;
import static org.bytedeco.llvm.global.LLVM.LLVMWriteBitcodeToFile;
import static org.bytedeco.llvm.global.LLVM.LLVMWriteBitcodeToMemoryBuffer;

import dev.mgpu.codegen.NativeModule;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.llvm.LLVM.LLVMValueRef;

/**
 * LLVM's code generator for kernels, run in a process of its own: the artifact's {@code llc} emits the object
 * or assembly of the optimised module from its bitcode. A back end that crashes or calls
 * {@code report_fatal_error} on what the checks before it let through then ends that process, never the JVM
 * (nor, in the server, the other runs it serves), and the run gets a located error that names the target.
 * {@code llc} is given what the in-process target machine is given (triple, CPU, features, level, position-
 * independent code, no assembly comments): its output is the same, byte for byte.
 *
 * <p>Where the tools' {@code mgpu-llvm-worker} is at hand ({@link BackendWorkers}), it does what llc does, in
 * a process that serves one module after another instead of one started for each.
 *
 * <p>Whether kernels are emitted here or in the JVM is {@code MGPU_BACKEND_PROCESS} (or the system property
 * {@code mgpu.backend.process}): {@code own} (here, the default: by a worker where there is one, else by
 * llc), {@code llc} (by llc, always), or {@code shared} (in the JVM: a few tens of milliseconds less per
 * target, where nothing else shares the JVM).
 */
public final class IsolatedBackend {
    private IsolatedBackend() {
    }

    /** How long LLVM's back end may take for one module and target. */
    private static final long SECONDS = 300;

    /** Whether kernels are emitted by a process of their own. */
    public static boolean enabled() {
        return !"shared".equals(mode());
    }

    private static String mode() {
        return System.getProperty("mgpu.backend.process", System.getenv("MGPU_BACKEND_PROCESS"));
    }

    /**
     * The object or assembly ({@code fileType}) of {@code nm}'s module, made by {@code llc}.
     *
     * @param nm the optimised kernel module, its triple set
     * @param triple the target triple
     * @param cpu the CPU or chip (empty for the target's generic one)
     * @param features the target features, or empty
     * @param optLevel the code generation level, 0 to 3
     * @param fileType {@code LLVMAssemblyFile} or {@code LLVMObjectFile}
     * @param module the {@code gpu.module}, where errors are located
     * @param target the target's name in messages
     * @return what llc wrote
     * @throws MgpuException located at {@code module} when llc refuses the module, crashes or cannot run
     */
    public static byte[] emit(NativeModule nm, String triple, String cpu, String features, int optLevel, int fileType,
            Operation module, String target) {
        Location where = module.knownLocation();
        if (!"llc".equals(mode()) && BackendWorkers.executable() != null) {
            return emitByWorker(nm, triple, cpu, features, optLevel, fileType, module, target);
        }
        Path dir = ExternalTools.tempDir("mgpu-llc", where);
        try {
            Path in = dir.resolve("kernels.bc");
            Path out = dir.resolve("kernels.out");
            if (LLVMWriteBitcodeToFile(nm.module(), in.toString()) != 0) {
                throw new MgpuException(where, "Invalid temporary file (must be writable): " + in);
            }
            List<String> args = new ArrayList<>(List.of("-mtriple=" + triple,
                    "-mcpu=" + (cpu == null || cpu.isEmpty() ? "generic" : cpu), "-O" + optLevel,
                    "-relocation-model=pic", "-asm-verbose=false",
                    "-filetype=" + (fileType == LLVMAssemblyFile ? "asm" : "obj")));
            if (features != null && !features.isEmpty()) {
                args.add("-mattr=" + features);
            }
            args.addAll(List.of(in.toString(), "-o", out.toString()));
            ProcessBuilder pb = ArtifactTools.tool("llc").command(args).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("llc.log").toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            // A crash dump of the child is LLVM's stack trace on stderr, kept in the log; no core file.
            pb.environment().put("LLVM_DISABLE_CRASH_REPORT", "1");
            Process p = pb.start();
            if (!p.waitFor(SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new MgpuException(where, "Invalid kernels for " + target + " (LLVM's back end must finish within "
                        + SECONDS + " s)");
            }
            int exit = p.exitValue();
            String log = ExternalTools.withoutTemporaryDirectories(Files.readString(dir.resolve("llc.log"),
                    StandardCharsets.UTF_8));
            if (exit == 1 && !log.contains("LLVM ERROR: ")) {
                // The errors LLVM's diagnostics report, as the JVM's handler of them reports them.
                throw new MgpuException(where, "Invalid kernels for " + target + " (must be accepted by LLVM's back"
                        + " end): " + errors(log));
            }
            if (exit != 0) {
                throw new MgpuException(where, "Invalid kernels for " + target + " (must be accepted by LLVM's back end,"
                        + " which " + ended(exit) + " in a process of its own): " + reason(log));
            }
            return Files.readAllBytes(out);
        } catch (IOException e) {
            throw new MgpuException(where, "Invalid LLVM back end for " + target + " (its llc must run): "
                    + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MgpuException(where, "Invalid LLVM back end run for " + target + " (interrupted)");
        } finally {
            ExternalTools.deleteTree(dir);
        }
    }

    private static byte[] emitByWorker(NativeModule nm, String triple, String cpu, String features, int optLevel,
            int fileType, Operation module, String target) {
        Location where = module.knownLocation();
        byte[] bitcode = Targets.drain(LLVMWriteBitcodeToMemoryBuffer(nm.module()), module);
        BackendWorkers.Answer a;
        try {
            a = BackendWorkers.emit(bitcode, triple, cpu, features, optLevel, fileType, SECONDS);
        } catch (IOException e) {
            throw new MgpuException(where, "Invalid LLVM back end for " + target + " (its worker must run): "
                    + e.getMessage());
        }
        if (a.output() != null) {
            return a.output();
        }
        if (a.errors() != null) {
            throw new MgpuException(where, "Invalid kernels for " + target + " (must be accepted by LLVM's back end): "
                    + a.errors());
        }
        if (a.exit() < 0) {
            throw new MgpuException(where, "Invalid kernels for " + target + " (LLVM's back end must finish within "
                    + SECONDS + " s)");
        }
        throw new MgpuException(where, "Invalid kernels for " + target + " (must be accepted by LLVM's back end, which "
                + ended(a.exit()) + " in a process of its own): " + reason(a.log()));
    }

    /**
     * The object or assembly of {@code nm}'s module made in this process, as {@link #emit} makes it: from the
     * module read back from its bitcode, which is what llc reads. (LLVM's code generator follows the order of
     * each value's uses, which bitcode does not keep: emitted from the module itself, some kernels get other
     * registers than from its bitcode.) The module is left as it was.
     *
     * @param tm the target machine
     * @param nm the optimised kernel module
     * @param fileType {@code LLVMAssemblyFile} or {@code LLVMObjectFile}
     * @param module the {@code gpu.module}, where errors are located
     * @return the object or assembly
     */
    public static byte[] emitHere(org.bytedeco.llvm.LLVM.LLVMTargetMachineRef tm, NativeModule nm, int fileType,
            Operation module) {
        org.bytedeco.llvm.LLVM.LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(nm.module());
        org.bytedeco.llvm.LLVM.LLVMModuleRef copy = new org.bytedeco.llvm.LLVM.LLVMModuleRef();
        try {
            if (LLVMParseBitcodeInContext2(nm.context(), bc, copy) != 0) {
                throw new MgpuException(module.knownLocation(), "Invalid kernel module (its bitcode must read back)");
            }
        } finally {
            LLVMDisposeMemoryBuffer(bc);
        }
        try (NativeModule view = NativeModule.borrow(copy)) {
            return Targets.emitWith(tm, view, fileType, module.knownLocation(), module, "kernel module");
        } finally {
            LLVMDisposeModule(copy);
        }
    }

    /**
     * Makes LLVM's back end forget what it keeps of {@code nm}'s module for the whole process (see
     * {@code CodeGeneration.remembersModules}), without generating the module's code here, which could end
     * the JVM: every function, global and debug record is removed, and the code of the module, then empty, is
     * generated and dropped. The module's contents are gone afterwards; a module with an alias, which the
     * translation never makes, is left as it is.
     *
     * @param tm the target machine that optimised the module
     * @param nm the kernel module, about to be disposed of
     */
    public static void forget(org.bytedeco.llvm.LLVM.LLVMTargetMachineRef tm, NativeModule nm) {
        org.bytedeco.llvm.LLVM.LLVMModuleRef m = nm.module();
        if (!isNull(LLVMGetFirstGlobalAlias(m))) {
            // The translation makes no aliases; one whose aliasee became poison could not have its code made.
            return;
        }
        List<LLVMValueRef> values = new ArrayList<>();
        for (LLVMValueRef f = LLVMGetFirstFunction(m); !isNull(f); f = LLVMGetNextFunction(f)) {
            values.add(f);
        }
        List<LLVMValueRef> globals = new ArrayList<>();
        for (LLVMValueRef g = LLVMGetFirstGlobal(m); !isNull(g); g = LLVMGetNextGlobal(g)) {
            globals.add(g);
        }
        values.addAll(globals);
        // No use may outlive what it uses: every use is replaced before anything is removed.
        for (LLVMValueRef v : values) {
            if (!isNull(LLVMGetFirstUse(v))) {
                LLVMReplaceAllUsesWith(v, LLVMGetPoison(LLVMTypeOf(v)));
            }
        }
        for (LLVMValueRef g : globals) {
            LLVMDeleteGlobal(g);
        }
        for (LLVMValueRef v : values.subList(0, values.size() - globals.size())) {
            LLVMDeleteFunction(v);
        }
        LLVMStripModuleDebugInfo(m);
        Targets.emitWith(tm, nm, LLVMAssemblyFile, Location.UNKNOWN, null, "emptied kernel module");
    }

    private static boolean isNull(Pointer p) {
        return p == null || p.isNull();
    }

    /** The error lines of llc's output, without LLVM's prefix for a message of no location, joined by "; ". */
    static String errors(String log) {
        List<String> out = new ArrayList<>();
        for (String line : log.split("\n")) {
            // llc names itself by its path, and the file it reads, before the message.
            String l = line.strip().replaceFirst("^((\\S*/)?llc: )?(error: )?((\\S*/)?llc: )?(kernels\\.bc: )?(error: )?", "")
                    .replaceFirst("^<unknown>:0:0: ", "");
            if (!l.isEmpty()) {
                out.add(l);
            }
        }
        return out.isEmpty() ? "no message" : String.join("; ", out);
    }

    /**
     * How a child process ended, from its exit code as Java reports it: with a signal (128 plus the signal's
     * number) or an exit code.
     *
     * @param exit the exit code
     * @return {@code crashed (SIGSEGV)} and the like, or {@code exited with N}
     */
    public static String ended(int exit) {
        if (exit > 128 && exit < 160) {
            int signal = exit - 128;
            String name = switch (signal) {
                case 4 -> "SIGILL";
                case 6 -> "SIGABRT";
                case 7 -> "SIGBUS";
                case 8 -> "SIGFPE";
                case 9 -> "SIGKILL";
                case 11 -> "SIGSEGV";
                default -> "signal " + signal;
            };
            return "crashed (" + name + ")";
        }
        return "exited with " + exit;
    }

    /**
     * {@code message} without what differs from one run to the next: the addresses of the selection DAG's nodes
     * ({@code Cannot select: 0x55e4...: i16,ch = AtomicLoadAdd<...> # D:1 0x55e4..., ...}), and the operand
     * list after {@code #} that only names more of them.
     */
    static String withoutAddresses(String message) {
        String m = message.replaceAll("0x[0-9a-f]+: ", "");
        int operands = m.indexOf(" # D:");
        return (operands >= 0 ? m.substring(0, operands) : m).replaceAll("0x[0-9a-f]{6,}", "0x...");
    }

    /** The line of llc's output that says why: {@code LLVM ERROR: ...}, else {@code error: ...}, else the first. */
    static String reason(String log) {
        String first = null;
        String error = null;
        for (String line : log.split("\n")) {
            String l = line.strip();
            if (l.isEmpty()) {
                continue;
            }
            if (l.contains("LLVM ERROR: ")) {
                return withoutAddresses(l.substring(l.indexOf("LLVM ERROR: ") + "LLVM ERROR: ".length()));
            }
            if (error == null && l.contains("error: ")) {
                error = l.substring(l.indexOf("error: ") + "error: ".length());
            }
            if (l.startsWith("Stack dump") || l.startsWith("PLEASE submit")) {
                // A crash report follows: the program's path and arguments, addresses. Only llc prints one.
                break;
            }
            if (first == null) {
                first = l;
            }
        }
        return error != null ? error : first != null ? first : "no message";
    }
}
