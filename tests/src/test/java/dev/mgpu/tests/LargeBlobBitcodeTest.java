package dev.mgpu.tests;

import static org.bytedeco.llvm.global.LLVM.LLVMDisposeMemoryBuffer;
import static org.bytedeco.llvm.global.LLVM.LLVMGetBufferSize;
import static org.bytedeco.llvm.global.LLVM.LLVMGetBufferStart;
import static org.bytedeco.llvm.global.LLVM.LLVMWriteBitcodeToMemoryBuffer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mgpu.codegen.CodegenOptions;
import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.codegen.NativeModule;
import dev.mgpu.codegen.internal.llvm.BitcodeSplice;
import dev.mgpu.codegen.internal.llvm.IrWriter;
import dev.mgpu.ir.Operation;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.bytedeco.llvm.LLVM.LLVMMemoryBufferRef;
import org.junit.jupiter.api.Test;

/**
 * Bitcode of modules that embed binaries of a MiB or more, whose records mgpu writes itself around LLVM's
 * bitcode of the rest: byte for byte what LLVM writes, for each encoding LLVM's writer chooses (bytes; a
 * C string of 6-bit characters, of 7-bit ones, of any bytes, which takes no abbreviation), with function
 * bodies and debug metadata after the constants, and with binaries that LLVM must write itself: two of one
 * size (one zero would stand for both) and one shared by two globals.
 */
class LargeBlobBitcodeTest {
    private static final int MIB = 1 << 20;

    /** A module embedding {@code blobs} by name (each "asm:" name is an assembly object, which gets a NUL). */
    private static String source(List<String> names) {
        List<String> lines = new ArrayList<>(List.of("module attributes {gpu.container_module} {"));
        for (String n : names) {
            boolean asm = n.startsWith("asm");
            lines.add("  gpu.binary @" + n + " [#gpu.object<#nvvm.target, " + (asm ? "assembly" : "bin") + " = \"@file:"
                    + n + "\">]");
        }
        lines.add("  llvm.func @main() {");
        lines.add("    %c = llvm.mlir.constant(1 : i64) : i64");
        for (String n : names) {
            lines.add("    gpu.launch_func @" + n + "::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64");
        }
        lines.add("    llvm.return");
        lines.add("  }");
        lines.add("  llvm.func @other() {");
        lines.add("    llvm.return");
        lines.add("  }");
        lines.add("}");
        return String.join("\n", lines) + "\n";
    }

    private static byte[] llvmBitcode(NativeModule nm) {
        LLVMMemoryBufferRef buf = LLVMWriteBitcodeToMemoryBuffer(nm.module());
        try {
            byte[] out = new byte[(int) LLVMGetBufferSize(buf)];
            LLVMGetBufferStart(buf).capacity(out.length).get(out);
            return out;
        } finally {
            LLVMDisposeMemoryBuffer(buf);
        }
    }

    /** Checks that the splice writes LLVM's bitcode, and returns whether it wrote it (or left it to LLVM). */
    private static boolean check(Map<String, byte[]> blobs, boolean debugInfo) throws Exception {
        Operation module = Mgpu.parse(source(new ArrayList<>(blobs.keySet())).getBytes(StandardCharsets.UTF_8),
                "blobs.mlir");
        Mgpu.Options options = new Mgpu.Options(LoadStrategy.LAZY, null, blobs, null, null,
                new CodegenOptions(2, null, null, debugInfo));
        try (NativeModule nm = Mgpu.translate(module, options)) {
            byte[] expected = llvmBitcode(nm);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            boolean written = BitcodeSplice.write(nm, IrWriter.largeConstants(nm), out);
            if (written) {
                assertArrayEquals(expected, out.toByteArray(), "spliced " + blobs.keySet());
            }
            // LLVM's own bitcode is left as it was.
            assertArrayEquals(expected, llvmBitcode(nm), "after " + blobs.keySet());
            assertArrayEquals(expected, Mgpu.emit(module, EmitKind.BC, options), "emitted " + blobs.keySet());
            Path file = Files.createTempFile("blobs", ".bc");
            try {
                Mgpu.emit(module, EmitKind.BC, options, file);
                assertArrayEquals(expected, Files.readAllBytes(file), "file " + blobs.keySet());
            } finally {
                Files.delete(file);
            }
            return written;
        }
    }

    private static byte[] text(String unit, int size) {
        return unit.repeat(size / unit.length() + 1).substring(0, size).getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void everyEncodingAsLlvmWritesIt() throws Exception {
        Random rnd = new Random(11);
        byte[] random = new byte[MIB + 5];
        rnd.nextBytes(random);
        byte[] everyByte = new byte[3 * MIB / 2 + 1];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = (byte) i;
        }
        Map<String, byte[]> blobs = new HashMap<>();
        blobs.put("random", random);
        blobs.put("every", everyByte);
        // Assembly gets a NUL: characters a Char6 holds, 7-bit text, and bytes above 127 (no abbreviation).
        blobs.put("asm6", text("abcXYZ019._", MIB + 3));
        blobs.put("asm7", text(".version 8.0\n.target sm_80\n// \"quoted\" \\ back\t\n", MIB + 7));
        blobs.put("asm8", text("\u00e9t\u00e9 \u00ff\u0080 \u0001", 2 * MIB + 1));
        blobs.put("small", Arrays.copyOf(random, 4096));
        blobs.put("zeros", new byte[MIB]);
        assertEquals(true, check(blobs, false));
        assertEquals(true, check(blobs, true));
        for (String one : List.of("random", "asm6", "asm7", "asm8")) {
            assertEquals(true, check(Map.of(one, blobs.get(one)), false), one);
        }
    }

    @Test
    void sharedRecordsAreLeftToLlvm() throws Exception {
        Random rnd = new Random(12);
        byte[] a = new byte[MIB];
        byte[] b = new byte[MIB];
        rnd.nextBytes(a);
        rnd.nextBytes(b);
        // Two of one size: the first is written here, the second (whose zero would be the first's) by LLVM.
        assertEquals(true, check(Map.of("a", a, "b", b), false));
        // One binary in two globals: one constant of two uses, which LLVM writes.
        assertEquals(false, check(Map.of("a", a, "same", a.clone()), false));
    }
}
