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

    /**
     * gdb runs a program through its kernels' loads to its end: the CPU backend loads each kernel object from
     * a descriptor of the program's, and gdb reads that object's symbols by the same path. The launch inside
     * an scf.for loop has a line of its own: a breakpoint there stops on it on each trip.
     */
    @Test
    void gdbRunsThroughKernelLoadsAndStopsInALoop() throws Exception {
        assumeTrue(TestPaths.findTool("gdb") != null || System.getenv("CI") != null, "gdb is not installed");
        Path dir = Files.createTempDirectory("mgpu-debug-loop");
        Path src = TestPaths.root().resolve("examples/kernels/axpy.mlir");
        Path host = dir.resolve("axpy.o");
        Native.exec(dir, Map.of(), TestPaths.root().resolve("tools/gpu-translate").toString(), "-g", "-O0",
                "--kernel-bare-ptr-calling-convention", src.toString(), "-o", host.toString());
        Path exe = dir.resolve("axpy");
        Native.exec(dir, Map.of(), "cc", "-g", "-O0", "-DKERNEL_AXPY",
                TestPaths.root().resolve("examples/kernels/main.c").toString(), host.toString(),
                "-L" + Native.libDir(), "-Wl,-rpath," + Native.libDir(), "-lmgpu", "-lm", "-o", exe.toString());
        String out = gdb(dir.resolve("gdb.txt"), exe, "break axpy.mlir:38", "run", "bt 1", "print ((float *) &y)[3]",
                "step", "continue", "bt 1", "delete", "continue");
        assertTrue(out.contains("Breakpoint 1 at "), out);
        assertTrue(out.contains(": file axpy.mlir, line 38."), out);
        assertTrue(out.contains("Breakpoint 1, run_axpy () at axpy.mlir:38"), out);
        assertTrue(out.contains("\n38\t      %tn = gpu.launch_func async [%t] @axpy_kernels::@axpy"), out);
        // Both stops are at the launch's line: the first run's (one trip), then the next run's.
        assertEquals(2, count(out, "#0  run_axpy () at axpy.mlir:38"), out);
        assertEquals(2, count(out, "Breakpoint 1, run_axpy () at axpy.mlir:38"), out);
        assertTrue(out.contains("$1 = 0.25"), out);
        // step leaves the launch for the loop's next line (its latch, at the scf.for).
        assertTrue(out.contains("\n37\t    %t5 = scf.for %i = %c0 to %reps"), out);
        assertTrue(out.contains("axpy: OK, every number checked"), out);
        assertTrue(out.contains("axpy: kernel "), out);
    }

    /**
     * -g gives CPU kernels line tables too: gdb stops at a line inside a kernel (once its object has loaded),
     * in the worker thread that runs the block, steps to the next line, and the program runs to its checked
     * end. Both kinds of CPU kernel: one of independent threads (axpy), and one whose threads meet at
     * barriers (matmul, built as loops over the threads between them).
     */
    @Test
    void gdbStopsInsideCpuKernels() throws Exception {
        assumeTrue(TestPaths.findTool("gdb") != null || System.getenv("CI") != null, "gdb is not installed");
        Path dir = Files.createTempDirectory("mgpu-debug-kernel");
        String axpy = debugKernel(dir, "axpy", "AXPY", 18, 19);
        assertTrue(axpy.contains("\n18\t        %r = arith.addf %ax, %yv : f32\n"), axpy);
        assertTrue(axpy.contains("\n19\t        memref.store %r, %y[%i] : memref<1024xf32>\n"), axpy);
        // The loop is unrolled and its loads interleaved (kernels are optimised at their target's level): the step
        // reaches the next load of B.
        String matmul = debugKernel(dir, "matmul", "MATMUL", 34, 33);
        assertTrue(matmul.contains("\n34\t          %next = math.fma %x, %y, %p : f32\n"), matmul);
    }

    /** Runs {@code name}'s example under gdb: a stop at {@code line} of its kernel, a step to {@code next}. */
    private static String debugKernel(Path dir, String name, String macro, int line, int next) throws Exception {
        Path src = TestPaths.root().resolve("examples/kernels/" + name + ".mlir");
        Path host = dir.resolve(name + ".o");
        Native.exec(dir, Map.of(), TestPaths.root().resolve("tools/gpu-translate").toString(), "-g", "-O0",
                "--kernel-bare-ptr-calling-convention", src.toString(), "-o", host.toString());
        Path exe = dir.resolve(name);
        Native.exec(dir, Map.of(), "cc", "-g", "-O0", "-DKERNEL_" + macro,
                TestPaths.root().resolve("examples/kernels/main.c").toString(), host.toString(),
                "-L" + Native.libDir(), "-Wl,-rpath," + Native.libDir(), "-lmgpu", "-lm", "-o", exe.toString());
        // The kernel's object loads at its first launch: the breakpoint in it is set once the runtime launches.
        String out = gdb(dir.resolve(name + "-gdb.txt"), exe, "break mgpuLaunchKernel", "run",
                "break " + name + ".mlir:" + line, "continue", "bt 1", "set scheduler-locking step", "next", "delete",
                "continue");
        assertTrue(out.contains("Breakpoint 2 at 0x"), out);
        assertTrue(out.contains(": file " + name + ".mlir, line " + line + "."), out);
        assertTrue(out.matches("(?s).*Thread \\d+ \"" + name + "\" hit Breakpoint 2, " + name + " \\(\\) at " + name
                + ".mlir:" + line + "\n.*"), out);
        assertTrue(out.contains("#0  " + name + " () at " + name + ".mlir:" + line + "\n"), out);
        assertTrue(out.contains("\n" + next + "\t"), out);
        assertTrue(out.contains(name + ": OK, every number checked"), out);
        return out;
    }

    /**
     * Runs {@code exe} on the CPU backend under gdb with {@code commands}, two runs of its kernel, and returns
     * what gdb and the program printed. The output goes to a file: a debugger that hangs is killed, and what it
     * wrote is read. gdb 13 may say "Couldn't get registers" (and exit 1) when the program's threads end with
     * it, so the end is read from the program's own last line, and only a debugger killed by timeout fails.
     */
    private static String gdb(Path log, Path exe, String... commands) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("timeout", "-k", "5", "100", "gdb", "-nx", "-batch",
                "-ex", "set debuginfod enabled off"));
        for (String c : commands) {
            cmd.addAll(List.of("-ex", c));
        }
        cmd.add(exe.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(exe.getParent().toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().putAll(Map.of("MGPU_BACKEND", "cpu", "KERNEL_REPS", "2", "KERNEL_TRIALS", "1"));
        Process p = pb.start();
        boolean ended = p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS);
        String out = Files.readString(log);
        if (!ended) {
            p.destroyForcibly();
        }
        assertTrue(ended && p.exitValue() != 124 && p.exitValue() != 137, "gdb hung:\n" + out);
        return out;
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
