package example;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.dialect.KernelBuilder;
import dev.mgpu.dialect.OpBuilder;
import dev.mgpu.dialect.builtin.Builtin;
import dev.mgpu.dialect.func.Func;
import dev.mgpu.dialect.gpu.AddressSpaceAttr;
import dev.mgpu.dialect.gpu.AllocOp;
import dev.mgpu.dialect.gpu.BinaryOp;
import dev.mgpu.dialect.gpu.GpuFuncOp;
import dev.mgpu.dialect.gpu.GpuModuleOp;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.dialect.gpu.LaunchFuncOp;
import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.dialect.gpu.OffloadingHandlerAttr;
import dev.mgpu.dialect.scf.Scf;
import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.mlir.MlirPrinter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Builds a kernel in Java with {@link KernelBuilder} (no MLIR text): a block-wide sum, each block of 256
 * threads adding its 256 elements in workgroup memory in a tree of halving steps, with a barrier after each.
 * The host function copies the input to the device, launches one block per 256 elements, and copies the
 * sums back. One library call compiles the kernel for NVIDIA (sm_90), AMD (gfx90a) and the CPU; the host
 * module, with all three objects embedded, becomes a native object that is linked with a small C driver and
 * libmgpu and run (on the CPU with {@code MGPU_BACKEND=cpu}). Each block's sum is checked against the same
 * sum computed here.
 *
 * <pre>java example.ReduceKernelFromJava RUNTIME_PREFIX WORK_DIR</pre>
 *
 * RUNTIME_PREFIX is an installed runtime (include/mgpu.h, lib/libmgpu.so). WORK_DIR receives the kernel's
 * module as MLIR ({@code reduce.mlir}, before compilation), the host object, the driver and the program.
 */
public final class ReduceKernelFromJava {
    private static final int THREADS = 256;
    private static final int BLOCKS = 16;
    private static final int N = THREADS * BLOCKS;

    private ReduceKernelFromJava() {}

    /**
     * Builds, compiles, links and runs the program, and checks what it prints.
     *
     * @param args the runtime's prefix and the work directory
     * @throws Exception if a step fails or a sum is wrong
     */
    public static void main(String[] args) throws Exception {
        Path runtime = Path.of(args[0]).toAbsolutePath();
        Path work = Files.createDirectories(Path.of(args[1]).toAbsolutePath());

        Builtin.ModuleOp module = module();
        List<Diagnostic> problems = Mgpu.verify(module.op());
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the module does not verify: " + problems);
        }
        Files.writeString(work.resolve("reduce.mlir"), MlirPrinter.print(module.op()), StandardCharsets.UTF_8);

        // One call compiles the gpu.module for each of its targets into a gpu.binary of three objects.
        Mgpu.compileKernels(module.op(), Mgpu.Options.DEFAULT);
        BinaryOp binary = new BinaryOp(module.body().operations().get(0));
        System.out.println("compiled " + binary.objects().size() + " objects: " + String.join(", ", binary.objects()
                .stream().map(o -> ((ObjectAttr) o).target().toString()).toList()));

        Path host = work.resolve("reduce_host.o");
        Mgpu.emit(module.op(), EmitKind.OBJ, Mgpu.Options.DEFAULT, host);
        Path driver = work.resolve("reduce_main.c");
        Files.writeString(driver, driver(), StandardCharsets.UTF_8);
        Path exe = work.resolve("reduce");
        run(work, "cc", "-O2", driver.toString(), host.toString(), "-L" + runtime.resolve("lib"),
                "-Wl,-rpath," + runtime.resolve("lib"), "-lmgpu", "-lm", "-o", exe.toString());
        List<String> lines = run(work, exe.toString()).lines().toList();

        float[] want = reference();
        int wrong = 0;
        for (int b = 0; b < BLOCKS; b++) {
            float got = b < lines.size() ? Float.parseFloat(lines.get(b).strip()) : Float.NaN;
            if (Float.compare(got, want[b]) != 0) {
                System.out.println("block " + b + ": " + got + ", want " + want[b]);
                wrong++;
            }
        }
        if (wrong > 0 || lines.size() != BLOCKS) {
            System.out.println("reduce: FAILED, " + wrong + " of " + BLOCKS + " sums wrong");
            System.exit(1);
        }
        System.out.println("reduce: OK, " + BLOCKS + " block sums of " + THREADS + " elements checked, sum[0] = "
                + want[0] + ", sum[" + (BLOCKS - 1) + "] = " + want[BLOCKS - 1]);
    }

    /** The input, as the driver fills it: multiples of 1/8, whose sums floats hold exactly. */
    private static float input(int i) {
        return (float) ((i * 7) % 101) / 8.0f;
    }

    /** Each block's sum, added in the kernel's order. */
    private static float[] reference() {
        float[] out = new float[BLOCKS];
        for (int b = 0; b < BLOCKS; b++) {
            float[] tile = new float[THREADS];
            for (int t = 0; t < THREADS; t++) {
                tile[t] = input(b * THREADS + t);
            }
            for (int s = THREADS / 2; s > 0; s /= 2) {
                for (int t = 0; t < s; t++) {
                    tile[t] += tile[t + s];
                }
            }
            out[b] = tile[0];
        }
        return out;
    }

    /** The kernel's module, for three targets, and the host function {@code run_block_sum(x, sums)}. */
    static Builtin.ModuleOp module() {
        Location loc = Location.of("ReduceKernelFromJava.java", 1, 1);
        Builtin.ModuleOp m = Builtin.ModuleOp.create(loc);
        m.setGpuContainer();
        GpuModuleOp kernels = GpuModuleOp.create(loc, "reduce_kernels", null)
                .setTargets(List.of(GpuTarget.NVVMTarget.of("sm_90"), GpuTarget.ROCDLTarget.of("gfx90a"),
                        GpuTarget.CpuTarget.host()))
                .setOffloadingHandler(new OffloadingHandlerAttr.RuntimeSelect());
        m.body().append(kernels.op());
        Type.MemRefType vec = new Type.MemRefType(new long[] {N}, Type.F32, null, null);
        Type.MemRefType sums = new Type.MemRefType(new long[] {BLOCKS}, Type.F32, null, null);
        blockSum(kernels, loc, vec, sums);
        hostFunction(m, loc, vec, sums);
        return m;
    }

    /**
     * {@code block_sum(x, sums)}: thread t of block b puts x[b * 256 + t] in the block's tile; then, for s =
     * 128, 64, ..., 1, the threads below s add tile[t + s] to tile[t], all threads meeting at a barrier after
     * each step; thread 0 writes tile[0] to sums[b].
     */
    private static void blockSum(GpuModuleOp kernels, Location loc, Type.MemRefType vec, Type.MemRefType sums) {
        Type.MemRefType tileType = new Type.MemRefType(new long[] {THREADS}, Type.F32, null,
                new AddressSpaceAttr("workgroup"));
        GpuFuncOp f = KernelBuilder.kernel(kernels, loc, "block_sum", List.of(vec, sums), List.of(tileType),
                List.of()).setKnownBlockSize(THREADS, 1, 1);
        KernelBuilder b = KernelBuilder.atEnd(f.body(), loc);
        Value x = f.body().argument(0);
        Value out = f.body().argument(1);
        Value tile = f.workgroupAttribution(0);
        Value tid = b.threadId(0);
        Value bid = b.blockId(0);
        Value i = b.arith("addi", b.arith("muli", bid, b.blockDim(0)), tid);
        b.store(b.load(x, i), tile, tid);
        b.barrier();
        for (int s = THREADS / 2; s > 0; s /= 2) {
            Value stride = b.constant(s, Type.INDEX);
            Scf.IfOp active = b.ifThen(b.cmpi("ult", tid, stride), List.of(), false);
            KernelBuilder then = b.into(active.thenRegion().entry());
            Value sum = then.arith("addf", then.load(tile, tid), then.load(tile, then.arith("addi", tid, stride)));
            then.store(sum, tile, tid);
            then.yield();
            b.barrier();
        }
        Scf.IfOp first = b.ifThen(b.cmpi("eq", tid, b.constant(0, Type.INDEX)), List.of(), false);
        KernelBuilder then = b.into(first.thenRegion().entry());
        then.store(then.load(tile, then.constant(0, Type.INDEX)), out, bid);
        then.yield();
        b.gpuReturn();
    }

    /** {@code run_block_sum(x, sums)}: sums[b] = x[256 b] + ... + x[256 b + 255] on the device. */
    private static void hostFunction(Builtin.ModuleOp m, Location loc, Type.MemRefType vec, Type.MemRefType sums) {
        OpBuilder top = OpBuilder.atEnd(m.body(), loc);
        Func.FuncOp f = top.func("run_block_sum", new Type.FunctionType(List.of(vec, sums), List.of()));
        OpBuilder b = OpBuilder.atEnd(f.body(), loc);
        Value one = b.constant(1, Type.INDEX);
        Value blocks = b.constant(BLOCKS, Type.INDEX);
        Value threads = b.constant(THREADS, Type.INDEX);
        Value t0 = b.await(List.of(), true);
        AllocOp dx = b.alloc(vec, List.of(t0), true, List.of(), false);
        AllocOp ds = b.alloc(sums, List.of(dx.asyncToken()), true, List.of(), false);
        Value t1 = b.memcpy(dx.memref(), f.body().argument(0), List.of(ds.asyncToken()), true);
        LaunchFuncOp launch = b.launch("reduce_kernels", "block_sum", List.of(t1), true,
                new Value[] {blocks, one, one}, new Value[] {threads, one, one}, null, null,
                List.of(dx.memref(), ds.memref()), null);
        Value t2 = b.memcpy(f.body().argument(1), ds.memref(), List.of(launch.asyncToken()), true);
        Value t3 = b.dealloc(dx.memref(), List.of(t2), true);
        Value t4 = b.dealloc(ds.memref(), List.of(t3), true);
        b.await(List.of(t4), false);
        b.funcReturn(List.of());
    }

    /** The C driver: fills x as {@link #input} does, calls the host function, prints each block's sum. */
    private static String driver() {
        return "#include <stdint.h>\n#include <stdio.h>\n"
                + "void run_block_sum(float *xa, float *x, int64_t xo, int64_t xn, int64_t xs, float *sa, float *s,"
                + " int64_t so, int64_t sn, int64_t ss);\n"
                + "static float x[" + N + "], sums[" + BLOCKS + "];\n"
                + "int main(void) {\n"
                + "  for (int i = 0; i < " + N + "; i++)\n"
                + "    x[i] = (float)((i * 7) % 101) / 8.0f;\n"
                + "  run_block_sum(x, x, 0, " + N + ", 1, sums, sums, 0, " + BLOCKS + ", 1);\n"
                + "  for (int b = 0; b < " + BLOCKS + "; b++)\n"
                + "    printf(\"%.9g\\n\", sums[b]);\n"
                + "  return 0;\n"
                + "}\n";
    }

    private static String run(Path dir, String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = p.waitFor();
        if (exit != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " exited with " + exit + ":\n" + out);
        }
        return out;
    }
}
