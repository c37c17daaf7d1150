package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.KernelOptions;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.dialect.gpu.BinaryOp;
import dev.mgpu.dialect.gpu.ObjectAttr;
import dev.mgpu.dialect.gpu.ObjectFormat;
import dev.mgpu.ir.Operation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Eight threads translate different modules at once, and kernel modules compile for their targets side by
 * side; each result equals its serial run.
 */
class ConcurrencyTest {
    private static String module(int i) {
        return CliTest.GOOD.replace("@k", "@k" + i).replace("\"AB\"", "\"blob" + i + "\"")
                .replace("(1 : i64)", "(" + (i + 1) + " : i64)");
    }

    @Test
    void eightThreadsMatchSerialRuns() throws Exception {
        int n = 8;
        LoadStrategy[] strategies = LoadStrategy.values();
        List<byte[]> serial = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            serial.add(translate(i, strategies[i % strategies.length]));
        }
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            for (int round = 0; round < 3; round++) {
                List<Future<byte[]>> futures = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    int k = i;
                    futures.add(pool.submit(() -> translate(k, strategies[k % strategies.length])));
                }
                for (int i = 0; i < n; i++) {
                    assertArrayEquals(serial.get(i), futures.get(i).get(), "module " + i + " differs");
                }
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(n, serial.stream().map(b -> new String(b, StandardCharsets.ISO_8859_1)).distinct().count());
    }

    private static byte[] translate(int i, LoadStrategy s) {
        Operation m = Mgpu.parse(module(i).getBytes(StandardCharsets.UTF_8), "m" + i + ".mlir");
        return Mgpu.emit(m, i % 2 == 0 ? EmitKind.BC : EmitKind.OBJ, Mgpu.Options.DEFAULT.withLoadStrategy(s));
    }

    private static final String TARGETS = "[#nvvm.target<chip = \"sm_90\">, #nvvm.target<chip = \"sm_80\">,"
            + " #rocdl.target<chip = \"gfx90a\">, #cpu.target]";

    /**
     * The four examples' kernel modules in one program, each for sm_90, sm_80, gfx90a and the CPU: sixteen
     * compilations that run side by side. Each object equals the one that module gets compiled alone for
     * that target alone.
     */
    @Test
    void kernelModulesCompiledSideBySideMatchEachAlone() throws Exception {
        List<String> modules = new ArrayList<>();
        for (String name : List.of("axpy", "stencil2d", "matmul", "reduce")) {
            String src = Files.readString(TestPaths.root().resolve("examples/kernels/" + name + ".mlir"));
            int start = src.indexOf("  gpu.module");
            modules.add(src.substring(start, src.indexOf("\n  }\n", start) + 5));
        }
        List<String> together = objects(String.join("", modules));
        assertEquals(16, together.size());
        String[] targets = TARGETS.substring(1, TARGETS.length() - 1).split(", ");
        for (int m = 0; m < modules.size(); m++) {
            for (int t = 0; t < targets.length; t++) {
                String alone = modules.get(m).replace(TARGETS, "[" + targets[t] + "]");
                assertEquals(List.of(together.get(m * targets.length + t)), objects(alone),
                        "module " + m + ", target " + targets[t]);
            }
        }
    }

    /**
     * One parsed model with a kernel module, emitted by four threads at once in three rounds, then again
     * with other kernel options: every output equals a run of its own, the second options give their own
     * objects, and the model prints as it did before (emitting replaced its gpu.module with a binary, so
     * threads met a half-replaced model and a second emit kept the first one's objects).
     */
    @Test
    void oneModelEmittedByFourThreadsStaysAsItWas() throws Exception {
        String src = Files.readString(TestPaths.root().resolve("examples/kernels/axpy.mlir")).replace(TARGETS,
                "[#cpu.target]");
        Operation m = Mgpu.parse(src.getBytes(StandardCharsets.UTF_8), "axpy.mlir");
        byte[] printed = Mgpu.emit(m, EmitKind.MLIR, Mgpu.Options.DEFAULT);
        byte[] alone = Mgpu.emit(Mgpu.parse(src.getBytes(StandardCharsets.UTF_8), "axpy.mlir"), EmitKind.LLVM,
                Mgpu.Options.DEFAULT);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 3; round++) {
                List<Future<byte[]>> futures = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    futures.add(pool.submit(() -> Mgpu.emit(m, EmitKind.LLVM, Mgpu.Options.DEFAULT)));
                }
                for (Future<byte[]> f : futures) {
                    assertArrayEquals(alone, f.get());
                }
            }
        } finally {
            pool.shutdown();
        }
        Mgpu.Options assembly = Mgpu.Options.DEFAULT.withKernels(KernelOptions.DEFAULT.withFormat(ObjectFormat.ASSEMBLY));
        byte[] other = Mgpu.emit(m, EmitKind.LLVM, assembly);
        assertArrayEquals(Mgpu.emit(Mgpu.parse(src.getBytes(StandardCharsets.UTF_8), "axpy.mlir"), EmitKind.LLVM,
                assembly), other);
        assertFalse(java.util.Arrays.equals(alone, other), "the second options' objects");
        assertArrayEquals(printed, Mgpu.emit(m, EmitKind.MLIR, Mgpu.Options.DEFAULT));
    }

    /** The objects (assembly text) of the kernel modules given, in program order. */
    private static List<String> objects(String modules) {
        Operation m = Mgpu.parse(("module attributes {gpu.container_module} {\n" + modules + "}\n")
                .getBytes(StandardCharsets.UTF_8), "kernels.mlir");
        Mgpu.compileKernels(m, Mgpu.Options.DEFAULT.withKernels(KernelOptions.DEFAULT.withFormat(ObjectFormat.ASSEMBLY)));
        List<String> objects = new ArrayList<>();
        for (Operation op : m.region(0).entry().operations()) {
            for (var o : new BinaryOp(op).objects()) {
                ObjectAttr object = (ObjectAttr) o;
                objects.add(new String(object.object().bytes(), StandardCharsets.ISO_8859_1));
            }
        }
        return objects;
    }

    /**
     * Twelve threads compile at once a kernel that LLVM's AMDGPU back end rejects (400,000 bytes of
     * workgroup memory): each gets its own located error. The back end's diagnostics reach mgpu through a
     * callback, and JavaCPP has ten native slots per callback class; with a handler object per compilation,
     * the eleventh got none, and LLVM ended the process.
     */
    @Test
    void twelveCompilationsAtOnceEachReportTheirError() throws Exception {
        String text = """
                module attributes {gpu.container_module} {
                  gpu.module @k [#rocdl.target<chip = "gfx90a">] {
                    gpu.func @f(%out: memref<1xf32>) workgroup(%w: memref<100000xf32, #gpu.address_space<workgroup>>) kernel {
                      %c0 = arith.constant 0 : index
                      %t = gpu.thread_id x
                      %x = arith.constant 1.0 : f32
                      memref.store %x, %w[%t] : memref<100000xf32, #gpu.address_space<workgroup>>
                      gpu.barrier
                      %v = memref.load %w[%c0] : memref<100000xf32, #gpu.address_space<workgroup>>
                      memref.store %v, %out[%c0] : memref<1xf32>
                      gpu.return
                    }
                  }
                }
                """;
        int n = 12;
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(n);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<String>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = i;
                futures.add(pool.submit(() -> {
                    Operation m = Mgpu.parse(text.getBytes(StandardCharsets.UTF_8), "k" + k + ".mlir");
                    start.await();
                    try {
                        Mgpu.compileKernels(m, Mgpu.Options.DEFAULT);
                        return "no error";
                    } catch (dev.mgpu.ir.MgpuException e) {
                        return e.getMessage();
                    }
                }));
            }
            for (int i = 0; i < n; i++) {
                String message = futures.get(i).get();
                assertTrue(message.contains("k" + i + ".mlir:2:3") && message.contains("local memory (400000) exceeds"
                        + " limit (65536) in function 'f'"), message);
            }
        } finally {
            pool.shutdown();
        }
    }
}
