package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mgpu.codegen.CodegenOptions;
import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.ir.Operation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With -g, a debugger stops on a line of the .mlir file: gdb breaks at axpy.mlir:16 (the launch) in the
 * axpy example built with debug info, shows that line of the source and the frame, and the same program
 * runs to its checked result.
 */
class DebugInfoTest {
    @Test
    void gdbStopsOnAnMlirLine() throws Exception {
        // In CI a missing gdb fails below instead of skipping.
        assumeTrue(TestPaths.findTool("gdb") != null || System.getenv("CI") != null, "gdb is not installed");
        Path dir = Files.createTempDirectory("mgpu-debug");
        Path src = TestPaths.root().resolve("examples/own-objects/axpy/axpy.mlir");
        Path kernels = Native.cpuKernels(dir, "axpy", TestPaths.root().resolve("examples/own-objects/axpy/axpy_cpu.c"));
        Operation module = Mgpu.parse(Files.readAllBytes(src), src.toString());
        Path host = dir.resolve("host.o");
        Files.write(host, Mgpu.emit(module, EmitKind.OBJ, new Mgpu.Options(LoadStrategy.LAZY, null,
                Map.of("axpy", Files.readAllBytes(kernels))).withCodegen(CodegenOptions.DEFAULT.withDebugInfo(true))));
        Path exe = Native.link(dir, "axpy", TestPaths.root().resolve("examples/own-objects/axpy/main.c"), host);
        // gdb ends the program after the backtrace (-batch kills it); timeout guards against a stuck debugger.
        Native.Result r = Native.run(dir, Map.of("MGPU_BACKEND", "cpu"), List.of("timeout", "120", "gdb", "-nx",
                "-batch", "-ex", "set debuginfod enabled off", "-ex", "break axpy.mlir:16", "-ex", "run", "-ex",
                "bt 1", exe.toString()));
        String out = r.out() + r.err();
        assertEquals(0, r.exit(), out);
        assertTrue(out.contains("Breakpoint 1 at "), out);
        assertTrue(out.contains(": file axpy.mlir, line 16."), out);
        assertTrue(out.contains("Breakpoint 1, run_axpy () at axpy.mlir:16"), out);
        assertTrue(out.contains("\n16\t    %t5 = gpu.launch_func async [%t4] @kernels::@axpy"), out);
        assertTrue(out.contains("#0  run_axpy () at axpy.mlir:16"), out);
        String run = Native.exec(dir, Map.of("MGPU_BACKEND", "cpu"), exe.toString());
        assertTrue(run.startsWith("axpy: OK, 1024 elements checked"), run);
    }
}
