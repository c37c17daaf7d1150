package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.ir.Operation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The host function of the axpy example (examples/kernels/axpy.mlir), whose launches run
 * in an scf.for that carries the stream's token, runs on the CPU backend with the hand-written CPU kernel
 * and the check's own driver, which checks every number after one launch and then times 200.
 */
class KernelHostLoopTest {
    @Test
    void tokenCarryingLoopOfLaunchesRunsAndChecks() throws Exception {
        Path work = Files.createTempDirectory("mgpu-host-loop");
        Path root = TestPaths.root();
        String example = Files.readString(root.resolve("examples/kernels/axpy.mlir"));
        int start = example.indexOf("  gpu.module @axpy_kernels");
        int stop = example.indexOf("\n  }\n", start) + "\n  }\n".length();
        String text = example.substring(0, start) + "  gpu.binary @axpy_kernels [#gpu.object<#cpu.target,"
                + " properties = {mgpu.bare_pointers}, \"@file:axpy\">]\n"
                + example.substring(stop);
        Path kernels = Native.cpuKernels(work, "axpy", root.resolve("examples/own-objects/axpy/axpy_cpu.c"));
        Operation module = Mgpu.parse(text.getBytes(StandardCharsets.UTF_8), "axpy.mlir");
        Path obj = work.resolve("host.o");
        Files.write(obj, Mgpu.emit(module, EmitKind.OBJ, new Mgpu.Options(null, null,
                Map.of("axpy", Files.readAllBytes(kernels)))));
        Path main = work.resolve("main.c");
        Files.writeString(main, "#define KERNEL_AXPY 1\n" + Files.readString(root.resolve("examples/kernels/main.c")));
        Path exe = Native.link(work, "axpy", main, obj);
        String out = Native.exec(work, Map.of("MGPU_BACKEND", "cpu"), exe.toString());
        assertTrue(out.startsWith("axpy: OK, every number checked\naxpy: kernel "), out);
    }

    /**
     * A host function with its kernel written in place (tests/e2e/outline/scale.mlir, a gpu.launch) is
     * outlined and compiled for NVIDIA, AMD and the CPU in one translation, into one binary that picks its
     * object at run time; on the CPU backend it runs mgpu's own CPU object and every number is right.
     */
    @Test
    void launchWrittenInPlaceRunsFromOneSource() throws Exception {
        Native.Result r = runOnCpu("scale.mlir", "main.c");
        assertTrue(r.exit() == 0 && r.out().startsWith("scale: OK, 0 wrong, x[1023] = 3069"), r.out() + r.err());
        assertTrue(r.err().contains("binary 'scale_kernel' on device 0 (host CPU): selected cpu bin"), r.err());
    }

    /**
     * A gpu.launch whose body calls host functions and loads a host global (tests/e2e/outline/symbols.mlir):
     * outlining copies them into the kernel's module, as upstream does, so the kernel runs its own copies on
     * every device, and the host keeps and uses its own.
     */
    @Test
    void launchUsingHostSymbolsRunsFromOneSource() throws Exception {
        Native.Result r = runOnCpu("symbols.mlir", "symbols_main.c");
        assertTrue(r.exit() == 0 && r.out().equals("symbols: OK, 0 wrong, out[63] = 11907\n"), r.out() + r.err());
    }

    /**
     * The math functions beyond the usual, the integer functions and the float classes
     * (tests/e2e/outline/math.mlir), on zeros, NaN, infinities, a subnormal and ordinary numbers: the CPU
     * computes what the C library does, bit for bit.
     */
    @Test
    void mathFunctionsComputeWhatTheCLibraryDoes() throws Exception {
        Native.Result r = runOnCpu("math.mlir", "math_main.c", List.of(GpuTarget.CpuTarget.host()));
        assertTrue(r.exit() == 0 && r.out().equals("math: OK, 0 wrong, f[63][12] = 1.52855\n"), r.out() + r.err());
    }

    /**
     * Constant tables as memref.global (tests/e2e/outline/globals.mlir): a launch body reads two tables of the
     * host module, which outlining copies into the kernel's module, and a third through a descriptor the host
     * makes of its own global; compiled for sm_90, gfx90a and the CPU, run on the CPU.
     */
    @Test
    void constantTablesReachKernelsAndHost() throws Exception {
        Native.Result r = runOnCpu("globals.mlir", "globals_main.c");
        assertTrue(r.exit() == 0 && r.out().equals("globals: OK, 0 wrong, out[63] = 413\n"), r.out() + r.err());
    }

    /**
     * gpu.subgroup_reduce over subgroups and clusters of them, of f32, f64, i32 and i64
     * (tests/e2e/outline/subgroup.mlir): the CPU computes, bit for bit, what a GPU's butterfly of shuffles does.
     */
    @Test
    void subgroupReductionsComputeWhatAButterflyDoes() throws Exception {
        Native.Result r = runOnCpu("subgroup.mlir", "subgroup_main.c");
        assertTrue(r.exit() == 0 && r.out().equals("subgroup: OK, 0 wrong, f[63][0] = 594.4, n[63][0] = 124\n"),
                r.out() + r.err());
    }

    /**
     * gpu.all_reduce (tests/e2e/outline/allreduce.mlir) over blocks of 20 x 5, 1,024, 1 and 33 x 31 threads,
     * by named reductions of f32, i32, i16 and i1, by a body of i64 values, and in a loop: every thread gets
     * the reduction of the whole block, as C computes it thread after thread.
     */
    @Test
    void allReductionsGiveEveryThreadTheBlocksTotal() throws Exception {
        Native.Result r = runOnCpu("allreduce.mlir", "allreduce_main.c");
        assertTrue(r.exit() == 0 && r.out().equals(
                "20 x 5: OK, 0 wrong, sum 2575.0, top 393, xor 444, flags 2, body 42520176235350, loop 52030151\n"
                + "1024 x 1: OK, 0 wrong, sum 262912.0, top 6861, xor 3072, flags 2, body 4499201581383168, loop"
                + " 551906444801\n"
                + "1 x 1: OK, 0 wrong, sum 1.0, top -300, xor 0, flags 0, body 0, loop 8\n"
                + "33 x 31: OK, 0 wrong, sum 262399.5, top 6854, xor 6137, flags 2, body 4490414078294529, loop"
                + " 549755813377\n"
                + "allreduce: OK\n"), r.out() + r.err());
    }

    /**
     * Views of memory in a kernel (tests/e2e/outline/views.mlir): memref.subview at static and dynamic
     * offsets, with strides and with a unit dimension dropped, expand_shape, collapse_shape, cast and
     * reinterpret_cast (from a memref and from a subview); each thread's numbers are what C reads at the
     * same places.
     */
    @Test
    void memoryViewsReadAndWriteWhereCDoes() throws Exception {
        Native.Result r = runOnCpu("views.mlir", "views_main.c");
        assertTrue(r.exit() == 0 && r.out().equals("views: OK, 0 wrong, out[63] = 149\n"), r.out() + r.err());
    }

    /**
     * gpu.printf in a launch of four threads (tests/e2e/outline/printf.mlir): on the CPU backend each thread
     * prints its line through the C library, a float and an i8 promoted as C promotes them.
     */
    @Test
    void printfPrintsFromEveryThread() throws Exception {
        Native.Result r = runOnCpu("printf.mlir", "printf_main.c", List.of(GpuTarget.CpuTarget.host()));
        assertTrue(r.exit() == 0 && r.out().equals("thread 0: 0.00 0 0\nthread 1: 1.50 -3 1\nthread 2: 3.00 -6 2\n"
                + "thread 3: 4.50 -9 3\nprintf: done\n"), r.out() + r.err());
    }

    /**
     * Translates tests/e2e/outline/SOURCE with its launches outlined and compiled for sm_90, gfx90a and the
     * CPU, links it with MAIN and runs it on the CPU backend (verbose).
     */
    private static Native.Result runOnCpu(String source, String main) throws Exception {
        return runOnCpu(source, main, List.of(GpuTarget.NVVMTarget.of("sm_90"),
                GpuTarget.ROCDLTarget.of("gfx90a"), GpuTarget.CpuTarget.host()));
    }

    /** As {@link #runOnCpu(String, String)}, with the launches' kernels compiled for {@code targets}. */
    private static Native.Result runOnCpu(String source, String main, List<GpuTarget> targets)
            throws Exception {
        Path work = Files.createTempDirectory("mgpu-outline");
        Path dir = TestPaths.root().resolve("tests/e2e/outline");
        Operation module = Mgpu.parse(Files.readAllBytes(dir.resolve(source)), source);
        var options = Mgpu.Options.DEFAULT.withKernels(dev.mgpu.codegen.KernelOptions.DEFAULT.withTargets(targets));
        String name = source.substring(0, source.indexOf('.'));
        Path obj = work.resolve(name + ".o");
        Files.write(obj, Mgpu.emit(module, EmitKind.OBJ, options));
        Path exe = Native.link(work, name, dir.resolve(main), obj);
        return Native.run(work, Map.of("MGPU_BACKEND", "cpu", "MGPU_VERBOSE", "1"), List.of(exe.toString()));
    }

    /**
     * Kernels whose threads work together (tests/e2e/together: shuffles of every mode in a block with a
     * partial subgroup; workgroup memory, private memory across barriers, a barrier in a loop that carries a
     * value and in an scf.if) compile for #cpu.target and compute, on the CPU backend, what a GPU does.
     */
    @Test
    void kernelsWhoseThreadsWorkTogetherRunOnTheCpu() throws Exception {
        Path work = Files.createTempDirectory("mgpu-together");
        Path root = TestPaths.root();
        Path dir = root.resolve("tests/e2e/together");
        Operation module = Mgpu.parse(Files.readAllBytes(dir.resolve("together.mlir")), "together.mlir");
        Path obj = work.resolve("together.o");
        Files.write(obj, Mgpu.emit(module, EmitKind.OBJ, Mgpu.Options.DEFAULT));
        Path exe = Native.link(work, "together", dir.resolve("main.c"), obj);
        Native.Result r = Native.run(work, Map.of("MGPU_BACKEND", "cpu"), List.of(exe.toString()));
        assertTrue(r.exit() == 0 && r.out().equals("together: OK, 0 wrong\n"), r.out() + r.err());
    }

    /**
     * A CPU kernel with a known_block_size runs that size in its loops whatever the launch says, so the CPU
     * backend refuses a launch of other blocks (the tiled matmul launched with 16x1 threads) and says why,
     * instead of running the wrong threads.
     */
    @Test
    void launchAgainstKnownBlockSizeIsRefusedOnTheCpu() throws Exception {
        Path work = Files.createTempDirectory("mgpu-known-block");
        Path root = TestPaths.root();
        String example = Files.readString(root.resolve("examples/kernels/matmul.mlir"));
        String right = "threads in (%c16, %c16, %c1)";
        assertTrue(example.contains(right));
        Operation module = Mgpu.parse(example.replace(right, "threads in (%c16, %c1, %c1)")
                .getBytes(StandardCharsets.UTF_8), "matmul.mlir");
        Path obj = work.resolve("matmul.o");
        Files.write(obj, Mgpu.emit(module, EmitKind.OBJ, Mgpu.Options.DEFAULT));
        Path main = work.resolve("main.c");
        Files.writeString(main, "#define KERNEL_MATMUL 1\n" + Files.readString(root.resolve("examples/kernels/main.c")));
        Path exe = Native.link(work, "matmul", main, obj);
        String refused = "kernel 'matmul' runs only blocks of 16x16x1 threads (its known_block_size), not 16x1x1";
        // By default the refused launch ends the program, naming the kernel and its binary.
        Native.Result r = Native.run(work, Map.of("MGPU_BACKEND", "cpu", "KERNEL_REPS", "2", "KERNEL_TRIALS", "1"),
                List.of(exe.toString()));
        assertTrue(r.err().contains(refused) && r.err().contains("binary 'matmul_kernels' was not launched"),
                r.out() + r.err());
        assertEquals(134, r.exit(), r.out() + r.err());
        // With MGPU_ON_ERROR=continue it goes on, and the program finds its numbers wrong.
        r = Native.run(work, Map.of("MGPU_BACKEND", "cpu", "KERNEL_REPS", "2", "KERNEL_TRIALS", "1", "MGPU_ON_ERROR",
                "continue"), List.of(exe.toString()));
        assertTrue(r.err().contains(refused), r.out() + r.err());
        assertTrue(r.exit() != 0 && r.out().startsWith("matmul: FAILED"), r.out() + r.err());
    }
}
