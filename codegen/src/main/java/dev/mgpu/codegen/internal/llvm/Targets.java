package dev.mgpu.codegen.internal.llvm;

import static org.bytedeco.llvm.global.LLVM.*;

import dev.mgpu.codegen.CodegenOptions;
import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.NativeModule;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import java.util.Locale;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.llvm.LLVM.LLVMMemoryBufferRef;
import org.bytedeco.llvm.LLVM.LLVMTargetDataRef;
import org.bytedeco.llvm.LLVM.LLVMTargetMachineRef;
import org.bytedeco.llvm.LLVM.LLVMTargetRef;

/** Target machines: the module's triple and data layout, and object and assembly emission. */
public final class Targets {
    private static boolean x86;
    private static boolean aarch64;
    private static boolean nvptx;
    private static boolean amdgpu;

    private Targets() {
    }

    /**
     * Initialises LLVM's NVPTX or AMDGPU target, once. Every target is initialised under this class's lock:
     * LLVM's registry of targets is a list without a lock of its own, and kernel modules compile side by side.
     */
    public static synchronized void initDeviceTarget(boolean forNvptx) {
        if (forNvptx && !nvptx) {
            LLVMInitializeNVPTXTargetInfo();
            LLVMInitializeNVPTXTarget();
            LLVMInitializeNVPTXTargetMC();
            LLVMInitializeNVPTXAsmPrinter();
            nvptx = true;
        } else if (!forNvptx && !amdgpu) {
            LLVMInitializeAMDGPUTargetInfo();
            LLVMInitializeAMDGPUTarget();
            LLVMInitializeAMDGPUTargetMC();
            LLVMInitializeAMDGPUAsmPrinter();
            amdgpu = true;
        }
    }

    /** Initialises LLVM's target for {@code triple}; returns false when it is not one mgpu emits for. */
    private static synchronized boolean initTarget(String triple) {
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

    /** {@code t} as LLVM spells it in full ({@code aarch64-linux-gnu} is {@code aarch64-unknown-linux-gnu}). */
    public static String normalize(String t) {
        try (BytePointer in = new BytePointer(t)) {
            BytePointer p = LLVMNormalizeTargetTriple(in);
            try {
                return p.getString();
            } finally {
                LLVMDisposeMessage(p);
            }
        }
    }

    /**
     * This machine's triple as the system's clang writes it: LLVM's default triple, with the vendor
     * {@code pc} for x86 on Linux where LLVM's build left it {@code unknown} (Debian's clang, like GCC,
     * names x86_64 Linux {@code x86_64-pc-linux-gnu}); a module with another triple makes
     * {@code clang -Werror} fail with -Woverride-module.
     */
    public static String hostTriple() {
        String triple = normalize(hostString(LLVMGetDefaultTargetTriple()));
        String[] parts = triple.split("-", 3);
        if (parts.length == 3 && parts[1].equals("unknown") && parts[2].startsWith("linux") && isX86(parts[0])) {
            return parts[0] + "-pc-" + parts[2];
        }
        return triple;
    }

    /** Whether {@code arch} is x86_64 or i386 to i686, without a regular expression (some 2 ms at a run's start). */
    private static boolean isX86(String arch) {
        return arch.equals("x86_64") || arch.length() == 4 && arch.charAt(0) == 'i' && arch.charAt(1) >= '3'
                && arch.charAt(1) <= '6' && arch.endsWith("86");
    }

    /** The CPU to generate code for: the option's, this machine's for {@code native}, else generic. */
    public static String cpu(CodegenOptions c) {
        return c.cpu() == null ? "generic" : resolveCpu(c.cpu());
    }

    /** {@code cpu}, with {@code native} replaced by this machine's CPU name. */
    public static String resolveCpu(String cpu) {
        return cpu.equals("native") ? hostString(LLVMGetHostCPUName()) : cpu;
    }

    /** The CPU features: the option's, else this machine's for {@code --mcpu=native}, else none. */
    public static String features(CodegenOptions c) {
        if (c.features() != null) {
            return c.features();
        }
        return "native".equals(c.cpu()) ? hostString(LLVMGetHostCPUFeatures()) : "";
    }

    private static String hostString(BytePointer p) {
        try {
            return p.getString();
        } finally {
            LLVMDisposeMessage(p);
        }
    }

    private static int level(CodegenOptions c) {
        return switch (c.optLevel()) {
            case 0 -> LLVMCodeGenLevelNone;
            case 1 -> LLVMCodeGenLevelLess;
            case 3 -> LLVMCodeGenLevelAggressive;
            default -> LLVMCodeGenLevelDefault;
        };
    }

    /**
     * Writes an explicitly chosen CPU and features into every function the module defines, as clang
     * does, so that IR and bitcode carry them to a downstream code generator.
     */
    public static void annotate(NativeModule nm, CodegenOptions c) {
        if (c.cpu() == null && c.features() == null) {
            return;
        }
        String cpu = c.cpu() == null ? null : cpu(c);
        String features = features(c);
        org.bytedeco.llvm.LLVM.LLVMContextRef ctx = LLVMGetModuleContext(nm.module());
        for (org.bytedeco.llvm.LLVM.LLVMValueRef f = LLVMGetFirstFunction(nm.module()); f != null && !f.isNull();
                f = LLVMGetNextFunction(f)) {
            if (LLVMIsDeclaration(f) != 0) {
                continue;
            }
            if (cpu != null) {
                LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                        LLVMCreateStringAttribute(ctx, "target-cpu", 10, cpu, cpu.length()));
            }
            if (!features.isEmpty()) {
                LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                        LLVMCreateStringAttribute(ctx, "target-features", 15, features, features.length()));
            }
        }
    }

    /** A target machine for {@code triple}, owned by the caller. */
    public static NativeTargetMachine machine(String triple, CodegenOptions c, Operation where) {
        if (!initTarget(triple)) {
            throw new MgpuException(where.location(), "Invalid target triple (must be an x86_64 or aarch64 triple): "
                    + triple);
        }
        TargetCpus.check(triple, c.cpu(), c.features(), where.location());
        LLVMTargetRef target = new LLVMTargetRef();
        BytePointer err = new BytePointer((Pointer) null);
        try (BytePointer nativeTriple = new BytePointer(triple)) {
            if (LLVMGetTargetFromTriple(nativeTriple, target, err) != 0) {
                String m = err.getString();
                LLVMDisposeMessage(err);
                throw new MgpuException(where.location(), "Invalid target triple (must be known to LLVM): "
                        + triple + ": " + m);
            }
        }
        return new NativeTargetMachine(LLVMCreateTargetMachine(target, triple, cpu(c), features(c), level(c),
                LLVMRelocPIC, LLVMCodeModelDefault));
    }

    /** Sets the module's triple and data layout. */
    public static void configure(NativeModule nm, String triple, CodegenOptions c, Operation where) {
        String t = triple != null ? triple : hostTriple();
        try (NativeTargetMachine tm = machine(t, c, where)) {
            LLVMSetTarget(nm.module(), t);
            LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm.get());
            LLVMSetModuleDataLayout(nm.module(), dl);
            LLVMDisposeTargetData(dl);
        }
    }

    public static byte[] emit(NativeModule nm, EmitKind kind, String triple, CodegenOptions c, Operation where) {
        switch (kind) {
            case LLVM: {
                java.util.List<IrWriter.Blob> blobs = IrWriter.largeConstants(nm);
                if (blobs.isEmpty()) {
                    return nm.toIRBytes();
                }
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                try {
                    IrWriter.write(nm, blobs, out);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                return out.toByteArray();
            }
            case BC: {
                java.util.List<IrWriter.Blob> blobs = IrWriter.largeConstants(nm);
                if (!blobs.isEmpty()) {
                    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                    try {
                        if (BitcodeSplice.write(nm, blobs, out)) {
                            return out.toByteArray();
                        }
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
                LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(nm.module());
                return drain(buf, where);
            }
            case OBJ:
            case ASM: {
                try (NativeTargetMachine tm = machine(triple != null ? triple : hostTriple(), c, where)) {
                    inlineHandleGetters(nm, tm.get(), where);
                    return emitWith(tm.get(), nm, kind == EmitKind.OBJ ? LLVMObjectFile : LLVMAssemblyFile,
                            where.location(), where, "module");
                }
            }
            default:
                throw new IllegalArgumentException("Invalid emit kind (must be llvm, bc, obj or asm): " + kind);
        }
    }

    /**
     * Writes the module to {@code file} from native memory, skipping the copies into Java arrays that
     * {@link #emit} makes; used for large outputs. A write that fails (a full disk) is a located error.
     */
    public static void emitToFile(NativeModule nm, EmitKind kind, String triple, CodegenOptions c, Operation where,
            java.nio.file.Path file) {
        String path = file.toAbsolutePath().toString();
        java.util.List<IrWriter.Blob> blobs = kind == EmitKind.LLVM ? IrWriter.largeConstants(nm) : java.util.List.of();
        if (!blobs.isEmpty()) {
            try (java.io.OutputStream out = new java.io.BufferedOutputStream(java.nio.file.Files.newOutputStream(file),
                    1 << 16)) {
                IrWriter.write(nm, blobs, out);
            } catch (java.io.IOException e) {
                throw new MgpuException(where.location(), "Invalid output (must be writable): " + e.getMessage());
            }
            return;
        }
        if (kind == EmitKind.LLVM) {
            // Printed into native memory and written by Java rather than by LLVM's own file stream, which ends
            // the process on a write error (a full disk); here it is a located error.
            BytePointer text = LLVMPrintModuleToString(nm.module());
            try {
                writeNative(text, BytePointer.strlen(text), file, where);
            } finally {
                LLVMDisposeMessage(text);
            }
            return;
        }
        if (kind == EmitKind.BC) {
            java.util.List<IrWriter.Blob> large = IrWriter.largeConstants(nm);
            if (!large.isEmpty()) {
                // The large constants' records are written from LLVM's constants, not built by LLVM's writer.
                try (java.io.OutputStream out = java.nio.file.Files.newOutputStream(file)) {
                    if (BitcodeSplice.write(nm, large, out)) {
                        return;
                    }
                } catch (java.io.IOException e) {
                    throw new MgpuException(where.location(), "Invalid output (must be writable): " + e.getMessage());
                }
            }
            LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(nm.module());
            try {
                writeNative(LLVMGetBufferStart(buf), LLVMGetBufferSize(buf), file, where);
            } finally {
                LLVMDisposeMemoryBuffer(buf);
            }
            return;
        }
        try {
            java.nio.file.Files.write(file, emit(nm, kind, triple, c, where));
        } catch (java.io.IOException e) {
            throw new MgpuException(where.location(), "Invalid output (must be writable): " + e.getMessage());
        }
    }

    /** Writes {@code size} bytes of native memory at {@code data} to {@code file}, without a copy into Java. */
    private static void writeNative(BytePointer data, long size, java.nio.file.Path file, Operation where) {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.WRITE, java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long off = 0; off < size; ) {
                long n = Math.min(size - off, 1L << 30);
                java.nio.ByteBuffer chunk = new BytePointer(data).capacity(off + n).limit(off + n).position(off).asBuffer();
                while (chunk.hasRemaining()) {
                    ch.write(chunk);
                }
                off += n;
            }
        } catch (java.io.IOException e) {
            throw new MgpuException(where.location(), "Invalid output (must be writable): " + e.getMessage());
        }
    }

    /**
     * Inlines the always-inline kernel-handle getters into the launches, so machine code has no call on
     * the launch path; nothing else is optimised.
     */
    private static void inlineHandleGetters(NativeModule nm, LLVMTargetMachineRef tm, Operation where) {
        runPasses(nm, "always-inline", tm, where.location(),
                "Invalid module for code generation (must pass LLVM's inliner): ");
    }

    /**
     * Removes the attribute {@code name} from every parameter of every function of the module.
     *
     * @param nm the module
     * @param name the attribute's name, such as {@code initializes}
     */
    public static void dropParameterAttribute(NativeModule nm, String name) {
        int kind = LLVMGetEnumAttributeKindForName(name, name.length());
        for (var f = LLVMGetFirstFunction(nm.module()); f != null && !f.isNull(); f = LLVMGetNextFunction(f)) {
            for (int i = LLVMCountParams(f); i > 0; i--) {
                LLVMRemoveEnumAttributeAtIndex(f, i, kind);
            }
        }
    }

    /** Runs the pass pipeline {@code passes} on the module; a failure is {@code message} and LLVM's reason. */
    public static void runPasses(NativeModule nm, String passes, LLVMTargetMachineRef tm, dev.mgpu.ir.Location where,
            String message) {
        org.bytedeco.llvm.LLVM.LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
        try {
            org.bytedeco.llvm.LLVM.LLVMErrorRef e = LLVMRunPasses(nm.module(), passes, tm, opts);
            if (e != null && !e.isNull()) {
                BytePointer m = LLVMGetErrorMessage(e);
                String text = m.getString();
                LLVMDisposeErrorMessage(m);
                throw new MgpuException(where, message + text);
            }
        } finally {
            LLVMDisposePassBuilderOptions(opts);
        }
    }

    /**
     * Generates the module's object or assembly ({@code fileType}) with {@code tm} into memory; a failure
     * is "Invalid {@code what} for code generation (must be accepted by LLVM's back end)" at {@code where};
     * {@code owner} locates an output too large for an array.
     */
    public static byte[] emitWith(LLVMTargetMachineRef tm, NativeModule nm, int fileType, dev.mgpu.ir.Location where,
            Operation owner, String what) {
        LLVMMemoryBufferRef buf = new LLVMMemoryBufferRef();
        BytePointer err = new BytePointer((Pointer) null);
        if (LLVMTargetMachineEmitToMemoryBuffer(tm, nm.module(), fileType, err, buf) != 0) {
            String m = err.getString();
            LLVMDisposeMessage(err);
            throw new MgpuException(where, "Invalid " + what + " for code generation (must be"
                    + " accepted by LLVM's back end): " + m);
        }
        return drain(buf, owner);
    }

    /** The largest output that can be returned as one Java array. */
    public static final long MAX_IN_MEMORY = Integer.MAX_VALUE - 8;

    /**
     * {@code size} as an array length, or a clear error: an output of 2 GiB or more cannot be one Java
     * array, but it can be written to a file.
     */
    public static int arrayLength(long size, Operation where) {
        if (size > MAX_IN_MEMORY) {
            throw new MgpuException(where.knownLocation(), "Invalid output size (must be below 2 GiB to be"
                    + " returned in memory; write it to a file instead): " + size + " bytes");
        }
        return (int) size;
    }

    public static byte[] drain(LLVMMemoryBufferRef buf, Operation where) {
        try {
            long n = LLVMGetBufferSize(buf);
            byte[] out = new byte[arrayLength(n, where)];
            LLVMGetBufferStart(buf).capacity(n).get(out);
            return out;
        } finally {
            LLVMDisposeMemoryBuffer(buf);
        }
    }
}
