package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.codegen.NativeModule;
import dev.mgpu.ir.Operation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * LLVM IR text of modules that embed binaries of a MiB or more, which mgpu writes itself around
 * LLVM's printing of the rest: byte for byte what LLVM prints, for every byte value, PTX with its NUL, an
 * all-zero blob, small and large blobs side by side, and a symbol that LLVM quotes.
 */
class LargeBlobTextTest {
    @Test
    void sameBytesAsLlvmPrints() throws Exception {
        Random rnd = new Random(5);
        byte[] random = new byte[(1 << 20) + 3];
        rnd.nextBytes(random);
        byte[] everyByte = new byte[3 << 19];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = (byte) i;
        }
        byte[] ptx = (".version 8.0\n.target sm_80\n// \"quoted\" \\ back\t\n".repeat(30_000))
                .getBytes(StandardCharsets.US_ASCII);
        byte[] zeros = new byte[1 << 20];
        byte[] small = Arrays.copyOf(random, 4096);
        String source = String.join("\n",
                "module attributes {gpu.container_module} {",
                "  gpu.binary @random [#gpu.object<#nvvm.target, bin = \"@file:random\">]",
                "  gpu.binary @\"every byte\" [#gpu.object<#nvvm.target, bin = \"@file:every\">]",
                "  gpu.binary @small [#gpu.object<#nvvm.target, bin = \"@file:small\">]",
                "  gpu.binary @ptx [#gpu.object<#nvvm.target, properties = {O = 2 : i32}, assembly = \"@file:ptx\">]",
                "  gpu.binary @zeros [#gpu.object<#nvvm.target, bin = \"@file:zeros\">]",
                "  llvm.func @main() {",
                "    %c = llvm.mlir.constant(1 : i64) : i64",
                "    gpu.launch_func @random::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64",
                "    gpu.launch_func @\"every byte\"::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64",
                "    gpu.launch_func @ptx::@k blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64",
                "    llvm.return",
                "  }",
                "}", "");
        Operation module = Mgpu.parse(source.getBytes(StandardCharsets.UTF_8), "blobs.mlir");
        Mgpu.Options options = new Mgpu.Options(LoadStrategy.LAZY, null, Map.of("random", random, "every",
                everyByte, "small", small, "ptx", ptx, "zeros", zeros));
        byte[] llvm;
        try (NativeModule nm = Mgpu.translate(module, options)) {
            llvm = nm.toIRBytes();
        }
        String text = new String(llvm, StandardCharsets.ISO_8859_1);
        assertTrue(text.contains("@\"every byte_bin_cst\" = internal constant [1572864 x i8] c\"\\00\\01"), "quoted");
        assertTrue(text.contains("@zeros_bin_cst = internal constant [1048576 x i8] zeroinitializer"), "zeros");

        assertArrayEquals(llvm, Mgpu.emit(module, EmitKind.LLVM, options));
        Path file = Files.createTempFile("blobs", ".ll");
        try {
            Mgpu.emit(module, EmitKind.LLVM, options, file);
            assertArrayEquals(llvm, Files.readAllBytes(file));
        } finally {
            Files.delete(file);
        }
    }
}
