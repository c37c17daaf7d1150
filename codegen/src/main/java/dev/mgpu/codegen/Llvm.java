package dev.mgpu.codegen;

import static org.bytedeco.llvm.global.LLVM.LLVMInitializeAArch64AsmPrinter;
import static org.bytedeco.llvm.global.LLVM.LLVMInitializeAArch64Target;
import static org.bytedeco.llvm.global.LLVM.LLVMInitializeAArch64TargetInfo;
import static org.bytedeco.llvm.global.LLVM.LLVMInitializeAArch64TargetMC;
import static org.bytedeco.llvm.global.LLVM.LLVMInitializeX86AsmPrinter;
import static org.bytedeco.llvm.global.LLVM.LLVMInitializeX86Target;
import static org.bytedeco.llvm.global.LLVM.LLVMInitializeX86TargetInfo;
import static org.bytedeco.llvm.global.LLVM.LLVMInitializeX86TargetMC;

import java.util.Locale;

/** Loads the native LLVM library once, and initialises only the targets asked for. */
final class Llvm {
    private static boolean x86;
    private static boolean aarch64;

    private Llvm() {
    }

    static synchronized void load() {
        // JavaCPP otherwise samples the process's resident size on every native allocation, which costs
        // more than the LLVM calls themselves; mgpu frees its temporaries deterministically.
        if (System.getProperty("org.bytedeco.javacpp.maxPhysicalBytes") == null) {
            System.setProperty("org.bytedeco.javacpp.maxPhysicalBytes", "0");
        }
        if (System.getProperty("org.bytedeco.javacpp.maxBytes") == null) {
            System.setProperty("org.bytedeco.javacpp.maxBytes", "0");
        }
        org.bytedeco.javacpp.Loader.load(org.bytedeco.llvm.global.LLVM.class);
    }

    /**
     * Starts {@link #load()} on a daemon thread. A failure there is left for the next {@code load()} to
     * meet and report, on the thread that needs LLVM.
     */
    static void loadInBackground() {
        Thread t = new Thread(() -> {
            try {
                load();
            } catch (RuntimeException | LinkageError e) {
                // Reported by the foreground load().
            }
        }, "mgpu-llvm-load");
        t.setDaemon(true);
        t.start();
    }

    /** Initialises the target for {@code triple}; returns false when it is not one mgpu emits for. */
    static synchronized boolean initTarget(String triple) {
        String arch = triple.toLowerCase(Locale.ROOT);
        if (arch.startsWith("x86_64") || arch.startsWith("i386") || arch.startsWith("i686")) {
            if (!x86) {
                LLVMInitializeX86TargetInfo();
                LLVMInitializeX86Target();
                LLVMInitializeX86TargetMC();
                LLVMInitializeX86AsmPrinter();
                x86 = true;
            }
            return true;
        }
        if (arch.startsWith("aarch64") || arch.startsWith("arm64")) {
            if (!aarch64) {
                LLVMInitializeAArch64TargetInfo();
                LLVMInitializeAArch64Target();
                LLVMInitializeAArch64TargetMC();
                LLVMInitializeAArch64AsmPrinter();
                aarch64 = true;
            }
            return true;
        }
        return false;
    }
}
