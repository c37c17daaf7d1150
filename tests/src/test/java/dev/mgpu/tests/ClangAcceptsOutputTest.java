package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.ir.Operation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The system's clang takes mgpu's IR text and bitcode as its own, with warnings as errors: the triple mgpu
 * writes is the one clang would write (for the host by default, and for a --target it is given), so clang
 * does not warn that the module overrides its target.
 */
class ClangAcceptsOutputTest {
    @Test
    void clangCompilesOurIrWithWarningsAsErrors() throws Exception {
        // In CI a missing clang-22 fails below instead of skipping.
        assumeTrue(TestPaths.findTool("clang-22") != null || System.getenv("CI") != null,
                "clang-22 is not installed (Debian clang-22)");
        Path dir = Files.createTempDirectory("mgpu-clang");
        // The own-object axpy's host program with a cubin's slot: a #cpu.target slot takes only a shared object
        // for the triple, and the three bytes are none; what clang reads is the host code.
        Operation module = Mgpu.parse(Files.readString(TestPaths.root().resolve("examples/own-objects/axpy/axpy.mlir"))
                .replace("#gpu.object<#cpu.target,", "#gpu.object<#nvvm.target,").getBytes(StandardCharsets.UTF_8),
                "axpy.mlir");
        for (String triple : new String[] {null, "aarch64-linux-gnu", "x86_64-linux-gnu"}) {
            Mgpu.Options o = new Mgpu.Options(LoadStrategy.LAZY, triple, Map.of("axpy", new byte[] {1, 2, 3}));
            for (EmitKind k : List.of(EmitKind.LLVM, EmitKind.BC)) {
                Path in = dir.resolve("axpy." + (k == EmitKind.LLVM ? "ll" : "bc"));
                Files.write(in, Mgpu.emit(module, k, o));
                List<String> cmd = new java.util.ArrayList<>(List.of("clang-22", "-Werror", "-c", in.toString(), "-o",
                        dir.resolve("axpy.o").toString()));
                if (triple != null) {
                    cmd.add(1, "--target=" + triple);
                }
                Native.Result r = Native.run(dir, Map.of(), cmd);
                assertEquals(0, r.exit(), String.join(" ", cmd) + "\n" + r.out() + r.err());
                // Not a warning either: -Werror turns warnings into errors, and none may be printed.
                assertEquals("", r.err(), String.join(" ", cmd));
                assertTrue(Files.size(dir.resolve("axpy.o")) > 0);
            }
        }
    }
}
