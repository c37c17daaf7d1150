package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.Mgpu;
import dev.mgpu.ir.Operation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The whole chain on the CPU backend: CPU kernels built with {@code cc -shared} become {@code #cpu.target}
 * blobs, the host program is translated to an object, linked with libmgpu by {@code cc}, and run; each
 * program checks every computed number against a host computation and prints a summary that is compared
 * here exactly.
 */
class EndToEndTest {
    private static Path work;

    static final String MEMORY_OK = "memory: OK, 16 x 2.5, 8 x -1234";

    record Case(String name, Path mlir, Path main, Map<String, Path> kernels, String expected) {
    }

    @BeforeAll
    static void setUp() throws IOException {
        work = Files.createTempDirectory("mgpu-e2e");
        assertTrue(Files.exists(TestPaths.root().resolve("runtime-c/build/libmgpu.so")),
                "libmgpu is not built (mvn builds it in runtime-c/build)");
    }

    static List<Case> cases() {
        Path ex = TestPaths.root().resolve("examples");
        Path e2e = TestPaths.root().resolve("tests/e2e");
        String axpy = "axpy: OK, 1024 elements checked, y[1] = 3.25, y[1023] = 2302.75";
        return List.of(
                new Case("axpy", ex.resolve("own-objects/axpy/axpy.mlir"), ex.resolve("own-objects/axpy/main.c"),
                        Map.of("axpy", ex.resolve("own-objects/axpy/axpy_cpu.c")), axpy),
                new Case("stencil2d", ex.resolve("own-objects/stencil2d/stencil.mlir"), ex.resolve("own-objects/stencil2d/main.c"),
                        Map.of("stencil", ex.resolve("own-objects/stencil2d/stencil_cpu.c")),
                        "stencil2d: OK, 7680 cells checked, sum = 38401.569"),
                new Case("mixed", e2e.resolve("mixed/mixed.mlir"), e2e.resolve("mixed/main.c"),
                        Map.of("mixed", e2e.resolve("mixed/mixed_cpu.c")),
                        "mixed: OK, i8 -7 i16 -1234 i32 1.23457e+08 i64 -9876543210123 f32 1.5 f64 -2.25"),
                new Case("fat", e2e.resolve("fat/fat.mlir"), ex.resolve("own-objects/axpy/main.c"),
                        Map.of("cpu", ex.resolve("own-objects/axpy/axpy_cpu.c")), axpy),
                new Case("memory", e2e.resolve("memory/memory.mlir"), e2e.resolve("memory/main.c"), Map.of(),
                        MEMORY_OK));
    }

    @TestFactory
    Stream<DynamicTest> programs() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Case c : cases()) {
            for (LoadStrategy s : LoadStrategy.values()) {
                tests.add(DynamicTest.dynamicTest(c.name() + " " + s.option(), () -> run(c, s, EmitKind.OBJ)));
            }
        }
        // Every other host output kind, under every strategy: assembly goes through cc, IR text and bitcode
        // through llc-22 (as a downstream toolchain would take them), and each program must still run.
        Case axpy = cases().get(0);
        for (EmitKind k : List.of(EmitKind.ASM, EmitKind.LLVM, EmitKind.BC)) {
            for (LoadStrategy s : LoadStrategy.values()) {
                tests.add(DynamicTest.dynamicTest(axpy.name() + " " + s.option() + " " + k.option(),
                        () -> run(axpy, s, k)));
            }
        }
        Case fat = cases().get(3);
        for (EmitKind k : List.of(EmitKind.ASM, EmitKind.LLVM, EmitKind.BC)) {
            tests.add(DynamicTest.dynamicTest(fat.name() + " lazy " + k.option(), () -> run(fat, LoadStrategy.LAZY, k)));
        }
        return tests.stream();
    }

    /** The preference order of run-time selection, for devices this machine need not have. */
    @org.junit.jupiter.api.Test
    void runtimeSelectionOrder() throws Exception {
        Path dir = Files.createDirectories(work.resolve("select"));
        Path exe = Native.link(dir, "select_test", TestPaths.root().resolve("tests/e2e/select/select_test.c"));
        assertEquals(String.join("\n",
                "sm_90 -> b",
                "sm_89 -> e",
                "sm_80 -> a",
                "sm_100 -> d",
                "gfx90a -> f",
                "gfx942 -> none",
                "cpu -> g",
                "sm_100 with only an sm_90 cubin -> none",
                "sm_75 with PTX 70 and 80 -> c",
                "sm_60 with PTX 70 and 80 -> none"), Native.exec(dir, Map.of(), exe.toString()).strip());
    }

    /** A fat binary with nothing for the device present says what it holds and what the device is. */
    @org.junit.jupiter.api.Test
    void runtimeSelectionWithoutAFit() throws Exception {
        Path dir = Files.createDirectories(work.resolve("nofit"));
        String src = Files.readString(TestPaths.root().resolve("tests/e2e/fat/fat.mlir"))
                .replace(",\n    #gpu.object<#cpu.target, properties = {mgpu.bare_pointers}, \"@file:cpu\">", "");
        Map<String, byte[]> embeds = new HashMap<>();
        for (String gpu : List.of("sm_80", "sm_90", "ptx", "gfx90a")) {
            embeds.put(gpu, gpu.getBytes(StandardCharsets.US_ASCII));
        }
        Operation module = Mgpu.parse(src.getBytes(StandardCharsets.UTF_8), "nofit.mlir");
        Path host = dir.resolve("host.o");
        Files.write(host, Mgpu.emit(module, EmitKind.OBJ, new Mgpu.Options(LoadStrategy.LAZY, null, embeds)));
        Path exe = Native.link(dir, "nofit", TestPaths.root().resolve("examples/own-objects/axpy/main.c"), host);
        Native.Result r = Native.run(dir, Map.of("MGPU_BACKEND", "cpu"), List.of(exe.toString()));
        String out = r.out() + r.err();
        assertTrue(r.exit() != 0, out);
        assertTrue(out.contains("mgpu: no object of binary 'kernels' fits device 0 (cpu backend: host CPU); the"
                + " binary holds: nvvm sm_80 bin, nvvm sm_90 bin, nvvm sm_80 assembly, rocdl gfx90a bin"), out);
    }

    private static void run(Case c, LoadStrategy strategy, EmitKind kind) throws Exception {
        Path dir = Files.createDirectories(work.resolve(c.name() + "-" + strategy.option() + "-" + kind.option()));
        Path exe = Native.link(dir, c.name(), c.main(), hostObject(c, strategy, kind, dir));
        String out = Native.exec(dir, Map.of("MGPU_BACKEND", "cpu"), exe.toString());
        assertEquals(c.expected(), out.strip());
    }

    /** {@code c}'s host object for {@code strategy}, written in {@code dir}, with its CPU kernels built there. */
    static Path hostObject(Case c, LoadStrategy strategy, Path dir) throws Exception {
        return hostObject(c, strategy, EmitKind.OBJ, dir);
    }

    /**
     * {@code c}'s host code for {@code strategy} as {@code kind}, in a form cc links: an object or assembly
     * as emitted, IR text or bitcode compiled to an object by llc-22.
     */
    static Path hostObject(Case c, LoadStrategy strategy, EmitKind kind, Path dir) throws Exception {
        Map<String, byte[]> embeds = new HashMap<>();
        for (Map.Entry<String, Path> k : c.kernels().entrySet()) {
            embeds.put(k.getKey(), Files.readAllBytes(Native.cpuKernels(dir, k.getKey(), k.getValue())));
        }
        // A fat binary's GPU objects cannot run here; they only have to be present and be passed over.
        for (String gpu : List.of("sm_80", "sm_90", "ptx", "gfx90a")) {
            embeds.putIfAbsent(gpu, ("not for this device: " + gpu).getBytes(StandardCharsets.US_ASCII));
        }
        Operation module = Mgpu.parse(Files.readAllBytes(c.mlir()), c.mlir().toString());
        byte[] out = Mgpu.emit(module, kind, new Mgpu.Options(strategy, null, embeds));
        String ext = switch (kind) {
            case ASM -> "s";
            case LLVM -> "ll";
            case BC -> "bc";
            default -> "o";
        };
        Path host = dir.resolve("host." + ext);
        Files.write(host, out);
        if (kind == EmitKind.LLVM || kind == EmitKind.BC) {
            Path obj = dir.resolve("host.o");
            Native.exec(dir, Map.of(), "llc-22", "-O2", "-filetype=obj", "-relocation-model=pic", host.toString(),
                    "-o", obj.toString());
            return obj;
        }
        return host;
    }
}
