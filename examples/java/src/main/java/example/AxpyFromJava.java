package example;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.dialect.OpBuilder;
import dev.mgpu.dialect.builtin.Builtin;
import dev.mgpu.dialect.func.Func;
import dev.mgpu.dialect.gpu.AllocOp;
import dev.mgpu.dialect.gpu.GpuTarget;
import dev.mgpu.dialect.gpu.LaunchFuncOp;
import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Builds the axpy example's host module in Java (no MLIR text), with its CPU kernels embedded, emits a
 * native object, links it with the example's C driver and libmgpu, and runs the program, which checks
 * every number.
 *
 * <pre>java example.AxpyFromJava EXAMPLE_DIR RUNTIME_PREFIX WORK_DIR</pre>
 *
 * EXAMPLE_DIR holds axpy_cpu.c and main.c (mgpu's examples/own-objects/axpy), RUNTIME_PREFIX an installed runtime
 * (include/mgpu.h, lib/libmgpu.so).
 */
public final class AxpyFromJava {
    private static final int N = 1024;

    private AxpyFromJava() {}

    public static void main(String[] args) throws Exception {
        Path example = Path.of(args[0]).toAbsolutePath();
        Path runtime = Path.of(args[1]).toAbsolutePath();
        Path work = Files.createDirectories(Path.of(args[2]).toAbsolutePath());

        // The CPU backend's kernels, compiled by the system's C compiler.
        Path kernels = work.resolve("axpy_cpu.so");
        run(work, "cc", "-shared", "-fPIC", "-O2", "-I" + runtime.resolve("include"),
                example.resolve("axpy_cpu.c").toString(), "-o", kernels.toString());

        Builtin.ModuleOp module = hostModule(Files.readAllBytes(kernels));
        List<Diagnostic> problems = Mgpu.verify(module.op());
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the module does not verify: " + problems);
        }
        Path host = work.resolve("axpy_host.o");
        Mgpu.emit(module.op(), EmitKind.OBJ, Mgpu.Options.DEFAULT, host);

        Path exe = work.resolve("axpy");
        run(work, "cc", example.resolve("main.c").toString(), host.toString(), "-L" + runtime.resolve("lib"),
                "-Wl,-rpath," + runtime.resolve("lib"), "-lmgpu", "-lm", "-o", exe.toString());
        run(work, exe.toString());
    }

    /**
     * {@code run_axpy(a, x, y)}: copies x and y to the device, runs {@code y = a * x + y} in 4 blocks of
     * 256 threads, copies y back.
     */
    static Builtin.ModuleOp hostModule(byte[] cpuKernels) {
        Location loc = Location.of("AxpyFromJava.java", 1, 1);
        Builtin.ModuleOp m = Builtin.ModuleOp.create(loc);
        m.setGpuContainer();
        OpBuilder top = OpBuilder.atEnd(m.body(), loc);
        // axpy_cpu.c's kernel takes each memref as the address of its first element: the object says so, and
        // the launch passes that instead of the descriptor's fields.
        top.binary("kernels", null, List.of(ObjectAttr.of(GpuTarget.CpuTarget.host(), cpuKernels).withBarePointers()));

        Type.MemRefType vec = new Type.MemRefType(new long[] {N}, Type.F32, null, null);
        Func.FuncOp f = top.func("run_axpy", new Type.FunctionType(List.of(Type.F32, vec, vec), List.of()));
        OpBuilder b = OpBuilder.atEnd(f.body(), loc);
        Value a = f.body().argument(0);
        Value hx = f.body().argument(1);
        Value hy = f.body().argument(2);
        Value one = b.constant(1, Type.INDEX);
        Value blocks = b.constant(N / 256, Type.INDEX);
        Value threads = b.constant(256, Type.INDEX);
        Value n = b.constant(N, Type.I32);
        Value t0 = b.await(List.of(), true);
        AllocOp dx = b.alloc(vec, List.of(t0), true, List.of(), false);
        AllocOp dy = b.alloc(vec, List.of(dx.asyncToken()), true, List.of(), false);
        Value t1 = b.memcpy(dx.memref(), hx, List.of(dy.asyncToken()), true);
        Value t2 = b.memcpy(dy.memref(), hy, List.of(t1), true);
        LaunchFuncOp launch = b.launch("kernels", "axpy", List.of(t2), true, new Value[] {blocks, one, one},
                new Value[] {threads, one, one}, null, null, List.of(a, dx.memref(), dy.memref(), n), null);
        Value t3 = b.memcpy(hy, dy.memref(), List.of(launch.asyncToken()), true);
        Value t4 = b.dealloc(dx.memref(), List.of(t3), true);
        Value t5 = b.dealloc(dy.memref(), List.of(t4), true);
        b.await(List.of(t5), false);
        b.funcReturn(List.of());
        return m;
    }

    private static void run(Path dir, String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).inheritIO().start();
        int exit = p.waitFor();
        if (exit != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " exited with " + exit);
        }
    }
}
