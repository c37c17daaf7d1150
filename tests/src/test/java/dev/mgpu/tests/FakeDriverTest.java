package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.codegen.EmitKind;
import dev.mgpu.codegen.LoadStrategy;
import dev.mgpu.codegen.KernelOptions;
import dev.mgpu.codegen.Mgpu;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * libmgpu's CUDA and HIP backends and the generated launch code, driven through stand-ins for the NVIDIA
 * driver and the HIP runtime ({@code tests/e2e/fakedriver/}) that check every call, trace the ones that
 * matter, and run each kernel on the host through its CPU build. This checks which object is loaded for
 * which device, the calls made per launch, the kernel parameters the driver receives, several devices and
 * threads; timing and the real drivers are what {@code tests/gpu/run-cuda-check.sh} checks on a GPU.
 */
class FakeDriverTest {
    private static final Path ROOT = TestPaths.root();
    private static final String AXPY_OK = "axpy: OK, 1024 elements checked, y[1] = 3.25, y[1023] = 2302.75";
    private static Path work;
    private static Path driver;
    private static Path hipDriver;

    /**
     * A host program of the examples, its kernel, the CPU build of that kernel and what it prints; how many
     * launches it makes, how many of them are synchronous, how many streams it synchronises, creates and
     * destroys (under lazy loading).
     */
    record Program(String name, Path mlir, Path main, String kernel, Path cpu, String expected, int launches,
            int syncLaunches, int syncs, int streams, int destroyed) {
    }

    /** How a program's kernel is embedded, and which stand-in runs it. */
    enum Format {
        CUBIN("#gpu.object<#nvvm.target<chip = \"sm_90\">, properties = {mgpu.bare_pointers}, bin = \"@file:%s\">",
                "cuda"),
        PTX("#gpu.object<#nvvm.target<chip = \"sm_80\">, properties = {O = 3 : i32, mgpu.bare_pointers}, assembly"
                + " = \"@file:%s\">",
                "cuda"),
        HSACO("#gpu.object<#rocdl.target<chip = \"gfx90a\">, properties = {mgpu.bare_pointers}, bin = \"@file:%s\">",
                "hip");

        final String object;
        final String backend;

        Format(String object, String backend) {
            this.object = object;
            this.backend = backend;
        }

        byte[] blob(String kernel) {
            return switch (this) {
                case CUBIN -> cubin("sm_90", kernel);
                case PTX -> ptx(kernel);
                case HSACO -> hsaco("gfx90a", kernel);
            };
        }
    }

    @BeforeAll
    static void buildDrivers() throws IOException, InterruptedException {
        work = Files.createTempDirectory("mgpu-fakedriver");
        driver = Files.createDirectories(work.resolve("cuda"));
        List<String> cmd = new ArrayList<>(List.of("cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-shared",
                "-fPIC", "-I" + Native.include()));
        Path cudaInclude = cudaInclude();
        if (cudaInclude != null) {
            // Where the toolkit's header is at hand, every stand-in function is checked against its prototype.
            cmd.addAll(List.of("-DFAKE_WITH_CUDA_H", "-I" + cudaInclude));
        }
        cmd.addAll(List.of("-Wl,-soname,libcuda.so.1", ROOT.resolve("tests/e2e/fakedriver/fake_libcuda.c")
                .toString(), "-o", driver.resolve("libcuda.so.1").toString(), "-ldl", "-lpthread"));
        Native.exec(work, Map.of(), cmd.toArray(String[]::new));
        // libmgpu has its HIP backend where the HIP headers are (CI installs them); the stand-in needs them too.
        if (Files.exists(Path.of("/usr/include/hip/hip_runtime_api.h"))
                || Files.exists(Path.of("/opt/rocm/include/hip/hip_runtime_api.h"))) {
            hipDriver = Files.createDirectories(work.resolve("hip"));
            Native.exec(work, Map.of(), "cc", "-std=c11", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC",
                    "-I" + Native.include(), "-I/opt/rocm/include", "-Wl,-soname,libamdhip64.so",
                    ROOT.resolve("tests/e2e/fakedriver/fake_libamdhip64.c").toString(), "-o",
                    hipDriver.resolve("libamdhip64.so").toString(), "-ldl", "-lpthread");
        }
    }

    private static Path cudaInclude() throws IOException {
        List<Path> candidates = new ArrayList<>();
        String home = System.getenv("CUDA_HOME");
        if (home != null) {
            candidates.add(Path.of(home, "include"));
        }
        candidates.add(Path.of("/usr/local/cuda/include"));
        try (Stream<Path> s = Files.list(Path.of("/usr/local"))) {
            s.filter(p -> p.getFileName().toString().startsWith("cuda-")).sorted()
                    .forEach(p -> candidates.add(p.resolve("include")));
        }
        return candidates.stream().filter(p -> Files.isRegularFile(p.resolve("cuda.h"))).findFirst().orElse(null);
    }

    private static List<Program> programs() {
        Path ex = ROOT.resolve("examples");
        Path e2e = ROOT.resolve("tests/e2e");
        return List.of(
                new Program("axpy", ex.resolve("own-objects/axpy/axpy.mlir"), ex.resolve("own-objects/axpy/main.c"), "axpy",
                        ex.resolve("own-objects/axpy/axpy_cpu.c"), AXPY_OK, 1, 0, 1, 1, 1),
                new Program("stencil2d", ex.resolve("own-objects/stencil2d/stencil.mlir"), ex.resolve("own-objects/stencil2d/main.c"),
                        "stencil", ex.resolve("own-objects/stencil2d/stencil_cpu.c"),
                        "stencil2d: OK, 7680 cells checked, sum = 38401.569", 2, 0, 1, 1, 1),
                new Program("mixed", e2e.resolve("mixed/mixed.mlir"), e2e.resolve("mixed/main.c"), "mixed",
                        e2e.resolve("mixed/mixed_cpu.c"),
                        "mixed: OK, i8 -7 i16 -1234 i32 1.23457e+08 i64 -9876543210123 f32 1.5 f64 -2.25", 1, 1, 4,
                        1, 0));
    }

    /** What the stand-in accepts as a cubin for {@code chip} holding {@code kernel}. */
    private static byte[] cubin(String chip, String kernel) {
        return ("FAKECUBIN " + chip + " " + kernel + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** What the HIP stand-in accepts as a code object for {@code gfx} holding {@code kernel}. */
    private static byte[] hsaco(String gfx, String kernel) {
        return ("FAKEHSACO " + gfx + " " + kernel + "\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** PTX text for sm_80 declaring {@code kernel}; the stand-in requires the NUL after its last brace. */
    private static byte[] ptx(String kernel) {
        return ("//\n// PTX for the stand-in driver\n.version 8.0\n.target sm_80\n.address_size 64\n\n"
                + ".visible .entry " + kernel + "(\n)\n{\n}\n\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static Path hostObject(Path dir, String source, LoadStrategy strategy, Map<String, byte[]> embeds)
            throws IOException {
        Path host = dir.resolve("host.o");
        byte[] text = source.getBytes(StandardCharsets.UTF_8);
        Files.write(host, Mgpu.emit(Mgpu.parse(text, dir.resolve("host.mlir").toString()), EmitKind.OBJ,
                new Mgpu.Options(strategy, null, embeds)));
        return host;
    }

    /** {@code mlir} with the CPU object of {@code kernel} replaced by {@code object} (a format with %s). */
    private static String withObject(Path mlir, String kernel, String object) throws IOException {
        return Files.readString(mlir).replace("#gpu.object<#cpu.target, properties = {mgpu.bare_pointers}, \"@file:"
                + kernel + "\">",
                String.format(object, kernel));
    }

    /** The CPU build of axpy, which the stand-ins run for every axpy launch. */
    private static Path axpyKernels(Path dir) throws IOException, InterruptedException {
        return Native.cpuKernels(dir, "axpy", ROOT.resolve("examples/own-objects/axpy/axpy_cpu.c"));
    }

    /** The blobs of tests/e2e/fat/fat.mlir: stand-in sm_80 and sm_90 cubins and PTX, {@code gfx90a}, CPU. */
    private static Map<String, byte[]> fatEmbeds(Path cpuKernels, byte[] gfx90a) throws IOException {
        return Map.of("sm_80", cubin("sm_80", "axpy"), "sm_90", cubin("sm_90", "axpy"), "ptx", ptx("axpy"),
                "gfx90a", gfx90a, "cpu", Files.readAllBytes(cpuKernels));
    }

    private static Native.Result runOn(int cc, Path exe, Path kernels) throws IOException, InterruptedException {
        return runOn(Integer.toString(cc), exe, kernels);
    }

    /** Runs on the CUDA stand-in with devices of these compute capabilities ("90,80"). */
    private static Native.Result runOn(String ccs, Path exe, Path kernels, String... extraEnv)
            throws IOException, InterruptedException {
        Map<String, String> env = new java.util.HashMap<>(Map.of("LD_LIBRARY_PATH", driver.toString(), "MGPU_BACKEND",
                "cuda", "FAKE_CUDA_CC", ccs, "FAKE_KERNELS", kernels.toString()));
        for (int i = 0; i + 1 < extraEnv.length; i += 2) {
            env.put(extraEnv[i], extraEnv[i + 1]);
        }
        return Native.run(exe.getParent(), env, List.of(exe.toString()));
    }

    /** Runs on the HIP stand-in, a device of architecture {@code arch} ("gfx90a:sramecc+:xnack-"). */
    private static Native.Result runOnHip(String arch, Path exe, Path kernels, String... extraEnv) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(Map.of("LD_LIBRARY_PATH", hipDriver.toString(),
                "MGPU_BACKEND", "hip", "FAKE_HIP_ARCH", arch, "FAKE_KERNELS", kernels.toString()));
        for (int i = 0; i + 1 < extraEnv.length; i += 2) {
            env.put(extraEnv[i], extraEnv[i + 1]);
        }
        return Native.run(exe.getParent(), env, List.of(exe.toString()));
    }

    /**
     * One source, every device: each example of examples/kernels (a kernel and its host function, with
     * {@code #gpu.runtime_select}), compiled by mgpu in one call into a binary that holds its sm_90 and sm_80
     * objects, its gfx90a HSACO and its CPU shared object, runs on the CUDA stand-in (which loads the fat
     * binary, or with {@code assembly} the PTX, for sm_90), on the HIP stand-in (which loads the HSACO) and on
     * the CPU backend, with every number checked. The stand-ins run each kernel through the CPU object of the
     * same binary, which mgpu compiled from the same kernel, barriers and shuffles included.
     */
    @TestFactory
    Stream<DynamicTest> compiledKernelsRunOnBothStandIns() throws Exception {
        Path dir = Files.createDirectories(work.resolve("compiled"));
        Path main = ROOT.resolve("examples/kernels/main.c");
        List<DynamicTest> tests = new ArrayList<>();
        for (String[] k : new String[][] {{"axpy", "AXPY"}, {"stencil2d", "STENCIL"}, {"matmul", "MATMUL"},
            {"reduce", "REDUCE"}}) {
            String name = k[0];
            for (String format : List.of("fatbin", "assembly")) {
                tests.add(DynamicTest.dynamicTest(name + " " + format, () -> {
                    var options = Mgpu.Options.DEFAULT.withKernels(dev.mgpu.codegen.KernelOptions.DEFAULT.withFormat(
                            format.equals("fatbin") ? dev.mgpu.dialect.gpu.ObjectFormat.FATBIN
                                    : dev.mgpu.dialect.gpu.ObjectFormat.ASSEMBLY));
                    var module = compiledExample(name, options);
                    // The CPU object of the fat binary's build (a shared object; with assembly it is text) is
                    // what the stand-ins run: built once per example.
                    Path kernels = dir.resolve(name + ".fatbin.so");
                    if (format.equals("fatbin") || !Files.exists(kernels)) {
                        Files.write(kernels, cpuObject(format.equals("fatbin") ? module : compiledExample(name,
                                Mgpu.Options.DEFAULT)));
                    }
                    Path obj = dir.resolve(name + "." + format + ".o");
                    Files.write(obj, Mgpu.emit(module, EmitKind.OBJ, options));
                    Path exe = dir.resolve(name + "." + format);
                    Native.exec(dir, Map.of(), "cc", "-O2", "-DKERNEL_" + k[1], "-I" + Native.include(), main.toString(),
                            obj.toString(), "-L" + Native.libDir(), "-Wl,-rpath," + Native.libDir(), "-lmgpu", "-lm",
                            "-o", exe.toString());
                    String ok = name + ": OK, every number checked";
                    Native.Result cuda = Native.run(dir, Map.of("LD_LIBRARY_PATH", driver.toString(), "MGPU_BACKEND",
                            "cuda", "FAKE_CUDA_CC", "90", "FAKE_KERNELS", kernels.toString(), "KERNEL_REPS", "2",
                            "KERNEL_TRIALS", "1"), List.of(exe.toString()));
                    assertEquals(0, cuda.exit(), cuda.out() + cuda.err());
                    assertTrue(cuda.out().startsWith(ok), cuda.out() + cuda.err());
                    String loaded = format.equals("fatbin") ? "cuModuleLoadData: cubin sm_90, kernels " + name
                            : "cuModuleLoadDataEx: PTX for sm_90 JIT-compiled for sm_90 at O2 (";
                    assertTrue(trace(cuda).stream().anyMatch(l -> l.startsWith(loaded)), cuda.err());
                    if (format.equals("fatbin")) {
                        Native.Result onCpu = Native.run(dir, Map.of("MGPU_BACKEND", "cpu", "MGPU_VERBOSE", "1",
                                "KERNEL_REPS", "2", "KERNEL_TRIALS", "1"), List.of(exe.toString()));
                        assertEquals(0, onCpu.exit(), onCpu.out() + onCpu.err());
                        assertTrue(onCpu.out().startsWith(ok), onCpu.out() + onCpu.err());
                        assertTrue(onCpu.err().contains("selected cpu"), onCpu.err());
                    }
                    if (hipDriver == null) {
                        assertTrue(System.getenv("CI") == null, "CI must have the HIP headers (libamdhip64-dev)");
                        Assumptions.abort("no HIP headers");
                    }
                    if (format.equals("fatbin")) {
                        Native.Result hip = Native.run(dir, Map.of("LD_LIBRARY_PATH", hipDriver.toString(),
                                "MGPU_BACKEND", "hip", "FAKE_HIP_ARCH", "gfx90a:sramecc+:xnack-", "FAKE_KERNELS",
                                kernels.toString(), "KERNEL_REPS", "2", "KERNEL_TRIALS", "1"), List.of(exe.toString()));
                        assertEquals(0, hip.exit(), hip.out() + hip.err());
                        assertTrue(hip.out().startsWith(ok), hip.out() + hip.err());
                        assertTrue(trace(hip).contains("hipModuleLoadData: code object gfx90a (ELF), kernels " + name),
                                hip.err());
                    }
                }));
            }
        }
        return tests.stream();
    }

    /** Example {@code name} of examples/kernels with its kernels compiled, one object per target in order. */
    private static dev.mgpu.ir.Operation compiledExample(String name, Mgpu.Options options) throws Exception {
        var module = Mgpu.parse(Files.readAllBytes(ROOT.resolve("examples/kernels/" + name + ".mlir")), name + ".mlir");
        Mgpu.compileKernels(module, options);
        var binary = module.region(0).entry().operations().stream()
                .filter(o -> o.name().equals(dev.mgpu.dialect.gpu.BinaryOp.NAME)).findFirst().orElseThrow();
        List<String> targets = new ArrayList<>();
        for (var a : new dev.mgpu.dialect.gpu.BinaryOp(binary).objects()) {
            targets.add(((dev.mgpu.dialect.gpu.ObjectAttr) a).target().toString());
        }
        assertEquals(List.of("#nvvm.target<chip = \"sm_90\">", "#nvvm.target<chip = \"sm_80\">",
                "#rocdl.target<chip = \"gfx90a\">", "#cpu.target"), targets);
        return module;
    }

    /** The bytes of the #cpu.target object of a compiled example's binary. */
    private static byte[] cpuObject(dev.mgpu.ir.Operation module) {
        var binary = module.region(0).entry().operations().stream()
                .filter(o -> o.name().equals(dev.mgpu.dialect.gpu.BinaryOp.NAME)).findFirst().orElseThrow();
        for (var a : new dev.mgpu.dialect.gpu.BinaryOp(binary).objects()) {
            var o = (dev.mgpu.dialect.gpu.ObjectAttr) a;
            if (o.target() instanceof dev.mgpu.dialect.gpu.GpuTarget.CpuTarget) {
                return o.object().bytes();
            }
        }
        throw new AssertionError("no #cpu.target object");
    }

    /**
     * Upstream's host code and mgpu's launch one PTX kernel, which upstream's default pipeline made, with the
     * same arguments: the memref as its descriptor's fields. The same host function is lowered by mlir-opt-22
     * and mlir-translate-22 (then llc-22) on one side, translated by mgpu with upstream's gpu.binary spliced in
     * on the other; the CUDA stand-in runs each launch through mgpu's CPU object of the same kernel, compiled
     * with mgpu's default convention, which reads the size from the third field.
     */
    @Test
    void upstreamHostCodeAndOursPassTheSameArguments() throws Exception {
        Path optTool = TestPaths.findTool("mlir-opt-22");
        Path translateTool = TestPaths.findTool("mlir-translate-22");
        Path llc = TestPaths.findTool("llc-22");
        if (optTool == null || translateTool == null || llc == null) {
            assertTrue(System.getenv("CI") == null, "CI must have mlir-opt-22, mlir-translate-22 and llc-22");
            Assumptions.abort("upstream's tools are missing");
        }
        Path dir = Files.createDirectories(work.resolve("upstream-launch"));
        Path src = ROOT.resolve("tests/e2e/upstream-launch/scale.mlir");
        Path main = ROOT.resolve("tests/e2e/upstream-launch/main.c");
        Path lowered = dir.resolve("upstream.mlir");
        Native.exec(dir, Map.of(), optTool.toString(), src.toString(),
                "-gpu-lower-to-nvvm-pipeline=cubin-chip=sm_90 cubin-features=+ptx80 cubin-format=isa",
                "-o", lowered.toString());
        Native.exec(dir, Map.of(), translateTool.toString(), "--mlir-to-llvmir", lowered.toString(), "-o",
                dir.resolve("upstream.ll").toString());
        Native.exec(dir, Map.of(), llc.toString(), "-O2", "-filetype=obj", "-relocation-model=pic",
                dir.resolve("upstream.ll").toString(), "-o", dir.resolve("upstream.o").toString());
        Path upstreamExe = Native.link(dir, "upstream", main, dir.resolve("upstream.o"));

        String text = Files.readString(src);
        String binary = Files.readString(lowered).lines().filter(l -> l.strip().startsWith("gpu.binary @kernels"))
                .findFirst().orElseThrow();
        int start = text.indexOf("  gpu.module @kernels");
        int stop = text.indexOf("\n  }\n", start) + "\n  }\n".length();
        String ours = text.substring(0, start) + binary + "\n" + text.substring(stop);
        Path oursObj = dir.resolve("ours.o");
        Files.write(oursObj, Mgpu.emit(Mgpu.parse(ours.getBytes(StandardCharsets.UTF_8), "ours.mlir"), EmitKind.OBJ,
                Mgpu.Options.DEFAULT));
        Path oursExe = Native.link(dir, "ours", main, oursObj);

        var module = Mgpu.parse(Files.readAllBytes(src), "scale.mlir");
        Mgpu.compileKernels(module, Mgpu.Options.DEFAULT.withKernels(KernelOptions.DEFAULT.withTargets(
                List.of(dev.mgpu.dialect.gpu.GpuTarget.CpuTarget.host()))));
        Path kernels = dir.resolve("scale.cpu.so");
        Files.write(kernels, cpuObject(module));

        List<List<String>> launches = new ArrayList<>();
        for (Path exe : List.of(upstreamExe, oursExe)) {
            Native.Result r = runOn(90, exe, kernels);
            assertEquals(0, r.exit(), r.out() + r.err());
            assertEquals("scale: OK, 1000 elements checked, x[999] = 2497.5", r.out().strip(), r.err());
            launches.add(traced(r, "cuLaunchKernel"));
            assertTrue(trace(r).stream().anyMatch(l -> l.startsWith("cuModuleLoadDataEx: PTX for sm_90")), r.err());
        }
        assertEquals(List.of("cuLaunchKernel: scale grid 16,1,1 block 64,1,1 smem 0 stream s1"), launches.get(1));
        assertEquals(launches.get(0), launches.get(1));
    }

    /** The stand-ins' trace lines, without their prefix. */
    private static List<String> trace(Native.Result r) {
        return r.err().lines().filter(l -> l.startsWith("fake-cuda: ") || l.startsWith("fake-hip: "))
                .map(l -> l.substring(l.indexOf(": ") + 2)).toList();
    }

    private static String summary(Native.Result r) {
        List<String> s = trace(r).stream().filter(l -> l.startsWith("summary: ")).toList();
        assertEquals(1, s.size(), r.err());
        return s.get(0);
    }

    @TestFactory
    Stream<DynamicTest> examples() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Program p : programs()) {
            for (Format f : Format.values()) {
                for (LoadStrategy s : LoadStrategy.values()) {
                    tests.add(DynamicTest.dynamicTest(p.name() + " " + f.name().toLowerCase() + " " + s.option(),
                            () -> example(p, f, s)));
                }
            }
        }
        return tests.stream();
    }

    private static void example(Program p, Format f, LoadStrategy s) throws Exception {
        Path dir = Files.createDirectories(work.resolve(p.name() + "-" + f + "-" + s.option()));
        String source = withObject(p.mlir(), p.kernel(), f.object);
        Path exe = Native.link(dir, p.name(), p.main(),
                hostObject(dir, source, s, Map.of(p.kernel(), f.blob(p.kernel()))));
        Path kernels = Native.cpuKernels(dir, p.kernel(), p.cpu());
        if (f.backend.equals("hip")) {
            Assumptions.assumeTrue(hipDriver != null, "requires the HIP headers");
        }
        Native.Result r = f.backend.equals("hip") ? runOnHip("gfx90a:sramecc+:xnack-", exe, kernels)
                : runOn(90, exe, kernels);
        assertEquals(0, r.exit(), r.out() + r.err());
        assertEquals(p.expected(), r.out().strip());
        assertFalse(r.err().contains("mgpu:"), r.err());
        // Lazy loading loads once and looks the kernel up once; ctor loads once and looks it up per launch;
        // per-launch does both per launch, and runs a synchronous launch on a stream of its own.
        boolean perLaunch = s == LoadStrategy.PER_LAUNCH;
        int loads = perLaunch ? p.launches() : 1;
        int lookups = s == LoadStrategy.LAZY ? 1 : p.launches();
        int extra = perLaunch ? p.syncLaunches() : 0;
        assertEquals(String.format("summary: %d loads, %d JIT loads, %d function lookups, %d launches, %d stream syncs,"
                + " %d streams created, %d destroyed, 0 allocations live", f == Format.PTX ? 0 : loads,
                f == Format.PTX ? loads : 0, lookups, p.launches(), p.syncs(), p.streams() + extra,
                p.destroyed() + extra), summary(r));
    }

    /** The whole conversation with the driver, for one program. */
    @Test
    void stencilTrace() throws Exception {
        Program p = programs().get(1);
        Path dir = Files.createDirectories(work.resolve("stencil-trace"));
        String source = withObject(p.mlir(), "stencil", Format.CUBIN.object);
        Path exe = Native.link(dir, "stencil", p.main(),
                hostObject(dir, source, LoadStrategy.LAZY, Map.of("stencil", cubin("sm_90", "stencil"))));
        Native.Result r = runOn(90, exe, Native.cpuKernels(dir, "stencil", p.cpu()));
        assertEquals(p.expected(), r.out().strip());
        assertEquals(List.of(
                "cuInit: device 0 is sm_90",
                "cuDevicePrimaryCtxRetain: device 0 (retained 1 times)",
                "cuStreamCreate: s1 non-blocking",
                "cuMemAlloc: m1, 30720 bytes",
                "cuMemAlloc: m2, 30720 bytes",
                "cuMemcpyAsync: m1+0 <- host, 30720 bytes, stream s1",
                "cuModuleLoadData: cubin sm_90, kernels stencil",
                "cuLaunchKernel: stencil grid 5,6,1 block 16,16,1 smem 0 stream s1",
                "cuLaunchKernel: stencil grid 5,6,1 block 16,16,1 smem 0 stream s1",
                "cuMemcpyAsync: host <- m1+0, 30720 bytes, stream s1",
                "cuMemFree: m1",
                "cuMemFree: m2",
                "cuStreamSynchronize: s1",
                "cuStreamDestroy: s1",
                "summary: 1 loads, 0 JIT loads, 1 function lookups, 2 launches, 1 stream syncs, 1 streams created, 1"
                        + " destroyed, 0 allocations live"), trace(r));
    }

    private static final String FAT_HOLDS = "the binary holds: nvvm sm_80 bin, nvvm sm_90 bin, nvvm sm_80 assembly,"
            + " rocdl gfx90a bin, cpu fatbin";

    /** The fat test binary on devices of several compute capabilities, and without its sm_90 object. */
    @Test
    void fatBinaryPicksPerDevice() throws Exception {
        Path dir = Files.createDirectories(work.resolve("fat"));
        Path kernels = axpyKernels(dir);
        Map<String, byte[]> embeds = fatEmbeds(kernels, "not an AMD object".getBytes(StandardCharsets.US_ASCII));
        String fat = Files.readString(ROOT.resolve("tests/e2e/fat/fat.mlir"));
        Path main = ROOT.resolve("examples/own-objects/axpy/main.c");
        Path exe = Native.link(dir, "fat", main, hostObject(dir, fat, LoadStrategy.LAZY, embeds));
        Map<Integer, String> loads = Map.of(
                90, "cuModuleLoadData: cubin sm_90, kernels axpy",
                86, "cuModuleLoadData: cubin sm_80, kernels axpy",
                80, "cuModuleLoadData: cubin sm_80, kernels axpy",
                100, "cuModuleLoadDataEx: PTX for sm_80 JIT-compiled for sm_100 at O3 (" + ptx("axpy").length
                        + " bytes)");
        for (Map.Entry<Integer, String> e : loads.entrySet()) {
            Native.Result r = runOn(e.getKey(), exe, kernels);
            assertEquals(AXPY_OK, r.out().strip(), r.err());
            assertEquals(List.of(e.getValue()), traced(r, "cuModuleLoad"));
        }
        Native.Result none = runOn(75, exe, kernels);
        assertNotEquals(0, none.exit());
        assertTrue(none.err().contains("mgpu: no object of binary 'kernels' fits device 0 (cuda backend: Fake CUDA"
                + " device sm_75, sm_75); " + FAT_HOLDS + "\n"), none.err());

        Path dir2 = Files.createDirectories(work.resolve("fat-nosm90"));
        String noSm90 = fat.lines().filter(l -> !l.contains("chip = \"sm_90\"")).reduce("", (a, b) -> a + b + "\n");
        Path exe2 = Native.link(dir2, "fat-nosm90", main, hostObject(dir2, noSm90, LoadStrategy.LAZY, embeds));
        Native.Result r = runOn(90, exe2, kernels);
        assertEquals(AXPY_OK, r.out().strip(), r.err());
        assertEquals(List.of("cuModuleLoadDataEx: PTX for sm_80 JIT-compiled for sm_90 at O3 (" + ptx("axpy").length
                + " bytes)"), traced(r, "cuModuleLoad"));
    }

    /**
     * One host executable, chosen for at run time: the NVIDIA stand-in gets the sm_90 cubin, the AMD one the
     * gfx90a code object, a machine with neither the CPU object; and an AMD device the binary has nothing
     * for gets an error that lists what the binary holds.
     */
    @Test
    void oneBinaryForEveryDevice() throws Exception {
        Assumptions.assumeTrue(hipDriver != null, "requires the HIP headers");
        Path dir = Files.createDirectories(work.resolve("every-device"));
        Path kernels = axpyKernels(dir);
        Map<String, byte[]> embeds = fatEmbeds(kernels, hsaco("gfx90a", "axpy"));
        Path exe = Native.link(dir, "fat", ROOT.resolve("examples/own-objects/axpy/main.c"), hostObject(dir,
                Files.readString(ROOT.resolve("tests/e2e/fat/fat.mlir")), LoadStrategy.LAZY, embeds));
        String both = driver + ":" + hipDriver;
        Map<String, String> devices = new java.util.LinkedHashMap<>();
        devices.put(both, "mgpu: binary 'kernels' on device 0 (sm_90): selected nvvm sm_90 bin");
        devices.put(hipDriver.toString(),
                "mgpu: binary 'kernels' on device 0 (gfx90a:sramecc+:xnack-): selected rocdl gfx90a bin");
        devices.put("", "mgpu: binary 'kernels' on device 0 (host CPU): selected cpu fatbin");
        for (Map.Entry<String, String> d : devices.entrySet()) {
            Native.Result r = Native.run(dir, Map.of("LD_LIBRARY_PATH", d.getKey(), "MGPU_VERBOSE", "1",
                    "FAKE_KERNELS", kernels.toString()), List.of(exe.toString()));
            assertEquals(AXPY_OK, r.out().strip(), r.err());
            assertEquals(List.of(d.getValue()), r.err().lines().filter(l -> l.contains("selected")).toList());
        }
        Native.Result r = runOnHip("gfx90a:sramecc+:xnack-", exe, kernels);
        assertEquals(List.of("hipModuleLoadData: code object gfx90a, kernels axpy"), traced(r, "hipModuleLoad"));
        Native.Result none = runOnHip("gfx942:sramecc+:xnack-", exe, kernels);
        assertNotEquals(0, none.exit());
        assertTrue(none.err().contains("mgpu: no object of binary 'kernels' fits device 0 (hip backend: Fake HIP"
                + " device gfx942, gfx942:sramecc+:xnack-); " + FAT_HOLDS + "\n"), none.err());
    }

    /**
     * Builds {@code mlir} (an axpy host program, its CPU object made an sm_90 cubin object) with a stand-in
     * cubin for {@code chip}, links it with {@code main}, and runs it on an sm_90 device.
     */
    private static Native.Result runAxpy(String name, String mlir, String main, String chip, String... extraEnv)
            throws Exception {
        Path dir = Files.createDirectories(work.resolve(name));
        Path kernels = axpyKernels(dir);
        String source = withObject(ROOT.resolve(mlir), "axpy", Format.CUBIN.object);
        Path exe = Native.link(dir, name, ROOT.resolve(main),
                hostObject(dir, source, LoadStrategy.LAZY, Map.of("axpy", cubin(chip, "axpy"))));
        return runOn("90", exe, kernels, extraEnv);
    }

    private static List<String> traced(Native.Result r, String call) {
        return trace(r).stream().filter(l -> l.startsWith(call)).toList();
    }

    /**
     * A program that moves to another device (mgpuSetDefaultDevice) gets each binary loaded again there,
     * each function looked up again, in that device's context: the fat binary picks sm_90 on device 0 and
     * sm_80 on device 1; a plain sm_80 cubin loads on an sm_80 and an sm_86 device, lazily or per launch.
     */
    @Test
    void secondDevice() throws Exception {
        Path dir = Files.createDirectories(work.resolve("two-devices"));
        Path kernels = axpyKernels(dir);
        Path main = ROOT.resolve("tests/e2e/fakedriver/two_devices_main.c");
        Map<String, byte[]> embeds = new java.util.HashMap<>(fatEmbeds(kernels, hsaco("gfx90a", "axpy")));
        embeds.put("axpy", cubin("sm_80", "axpy"));
        Path fat = Native.link(dir, "fat", main, hostObject(dir,
                Files.readString(ROOT.resolve("tests/e2e/fat/fat.mlir")), LoadStrategy.LAZY, embeds));
        Native.Result r = runOn("90,80", fat, kernels);
        assertEquals("device 0: OK\ndevice 1: OK", r.out().strip(), r.err());
        assertEquals(List.of("cuModuleLoadData: cubin sm_90, kernels axpy",
                "cuModuleLoadData: cubin sm_80, kernels axpy on device 1"), traced(r, "cuModuleLoad"));
        assertTrue(summary(r).contains(" 2 function lookups, 2 launches,"), summary(r));

        String sm80 = withObject(ROOT.resolve("examples/own-objects/axpy/axpy.mlir"), "axpy",
                "#gpu.object<#nvvm.target<chip = \"sm_80\">, properties = {mgpu.bare_pointers}, bin = \"@file:%s\">");
        for (LoadStrategy s : List.of(LoadStrategy.LAZY, LoadStrategy.PER_LAUNCH)) {
            Path sub = Files.createDirectories(dir.resolve(s.option()));
            Path exe = Native.link(sub, "axpy", main, hostObject(sub, sm80, s, embeds));
            Native.Result q = runOn("80,86", exe, kernels);
            assertEquals("device 0: OK\ndevice 1: OK", q.out().strip(), q.err());
            assertEquals(List.of("cuModuleLoadData: cubin sm_80, kernels axpy",
                    "cuModuleLoadData: cubin sm_80, kernels axpy on device 1"), traced(q, "cuModuleLoad"));
            assertFalse(q.err().contains("mgpu:"), q.err());
        }
    }

    /**
     * Eight threads launch at once: the context is made current on each of them, the binary is loaded and
     * its function looked up once, and every thread's numbers come out right. Run three times, for races.
     */
    @Test
    void concurrentThreads() throws Exception {
        for (int i = 0; i < 3; i++) {
            Native.Result r = runAxpy("threads", "examples/own-objects/axpy/axpy.mlir", "tests/e2e/fakedriver/threads_main.c",
                    "sm_90");
            assertEquals("threads: OK, 8 threads x 2 runs", r.out().strip(), r.err());
            assertFalse(r.err().contains("mgpu:"), r.err());
            assertEquals(List.of("cuModuleLoadData: cubin sm_90, kernels axpy"), traced(r, "cuModuleLoad"));
            assertEquals(List.of("cuDevicePrimaryCtxRetain: device 0 (retained 1 times)"),
                    traced(r, "cuDevicePrimary"));
            assertTrue(summary(r).contains(" 1 function lookups, 16 launches,"), summary(r));
        }
    }

    /** Memsets of both widths, copies both ways, joined streams and host registration, on both stand-ins. */
    @Test
    void memoryOperations() throws Exception {
        Path dir = Files.createDirectories(work.resolve("memory"));
        Path exe = Native.link(dir, "memory", ROOT.resolve("tests/e2e/memory/main.c"), hostObject(dir,
                Files.readString(ROOT.resolve("tests/e2e/memory/memory.mlir")), LoadStrategy.LAZY, Map.of()));
        Path none = dir.resolve("no-kernels.so");
        Native.Result cuda = runOn(90, exe, none);
        assertEquals(EndToEndTest.MEMORY_OK, cuda.out().strip(), cuda.err());
        assertFalse(cuda.err().contains("mgpu:"), cuda.err());
        assertEquals(List.of("cuMemsetD32Async: m1+0, 16 x 0x40200000, stream s1",
                "cuMemsetD16Async: m2+0, 8 x 0xfb2e, stream s1"), traced(cuda, "cuMemset"));
        assertEquals(List.of("cuMemHostRegister: 256 bytes, flags 0"), traced(cuda, "cuMemHost"));
        assertEquals(List.of("cuStreamWaitEvent: s1 waits for e1"), traced(cuda, "cuStreamWaitEvent"));
        assertTrue(summary(cuda).endsWith(" 0 allocations live"), summary(cuda));
        Assumptions.assumeTrue(hipDriver != null, "requires the HIP headers");
        Native.Result hip = runOnHip("gfx90a:sramecc+:xnack-", exe, none);
        assertEquals(EndToEndTest.MEMORY_OK, hip.out().strip(), hip.err());
        assertFalse(hip.err().contains("mgpu:"), hip.err());
        assertEquals(List.of("hipMemsetD32Async: m1+0, 16 x 0x40200000, stream s1",
                "hipMemsetD16Async: m2+0, 8 x 0xfb2e, stream s1"), traced(hip, "hipMemset"));
        assertEquals(List.of("hipHostRegister: 256 bytes, flags 0"), traced(hip, "hipHostRegister"));
    }

    /**
     * The launch-overhead benchmark's loops: a synchronous launch creates no stream and looks nothing up;
     * an asynchronous loop runs on the one stream its token names.
     */
    @Test
    void launchLoops() throws Exception {
        Native.Result r = runAxpy("loops", "tests/gpu/launch_bench.mlir", "tests/e2e/fakedriver/loops_main.c", "sm_90");
        assertEquals("loops: OK, 1000 elements checked, y[999] = 14986", r.out().strip(), r.err());
        assertEquals("summary: 1 loads, 0 JIT loads, 1 function lookups, 40 launches, 22 stream syncs, 2 streams"
                + " created, 1 destroyed, 0 allocations live", summary(r));
        assertEquals(List.of("cuStreamCreate: s1 non-blocking", "cuStreamCreate: s2 non-blocking"),
                traced(r, "cuStreamCreate"));
        assertEquals(20, traced(r, "cuLaunchKernel").stream().filter(l -> l.endsWith("stream s2")).count());
    }

    /**
     * A stream the caller passes in stays the caller's (the program destroys it itself, once); the stream
     * mgpu makes for a token is destroyed once the launch that waited for it no longer needs it; the
     * launch waits for an event recorded where the token was produced; a token nobody uses makes no stream.
     */
    @Test
    void callerStreams() throws Exception {
        Native.Result r = runAxpy("streams", "tests/e2e/streams/streams.mlir", "tests/e2e/streams/main.c", "sm_90");
        assertEquals("streams: OK, 1000 elements checked, y[999] = 1000", r.out().strip(), r.err());
        assertFalse(r.err().contains("mgpu:"), r.err());
        assertEquals(List.of("cuStreamCreate: s1 non-blocking", "cuStreamCreate: s2 non-blocking"),
                traced(r, "cuStreamCreate"));
        assertEquals(List.of("cuStreamDestroy: s2", "cuStreamDestroy: s1"), traced(r, "cuStreamDestroy"));
        assertEquals(List.of("cuEventRecord: e1 on s2"), traced(r, "cuEventRecord"));
        assertEquals(List.of("cuStreamWaitEvent: s1 waits for e1"), traced(r, "cuStreamWaitEvent"));
        assertEquals(2, traced(r, "cuLaunchKernel").stream().filter(l -> l.endsWith("stream s1")).count());
        assertTrue(summary(r).endsWith("2 streams created, 2 destroyed, 0 allocations live"), summary(r));
    }

    /** {@code clusters in (...)} reaches the driver as a cluster launch attribute. */
    @Test
    void clusterLaunch() throws Exception {
        Native.Result r = runAxpy("cluster", "tests/gpu/axpy_cluster.mlir", "examples/own-objects/axpy/main.c", "sm_90");
        assertEquals(AXPY_OK, r.out().strip(), r.err());
        assertEquals(List.of("cuLaunchKernelEx: axpy grid 4,1,1 block 256,1,1 cluster 2,1,1 smem 0 stream s1"),
                traced(r, "cuLaunch"));
    }

    /** The end of a program whose kernel did not load: its report, then what was not loaded, and why. */
    private static final String LOAD_ABORT = "mgpu: %s: mgpuModuleGetFunctionLazy: kernel 'axpy' of a module of"
            + " [0-9]+ bytes did not load: %s; aborting \\(MGPU_ON_ERROR=continue reports and goes on\\)";

    /**
     * A driver error names the mgpu function the program called, the driver function and the error; the
     * program then ends (abort), naming the kernel that did not load, or with MGPU_ON_ERROR=continue goes on
     * as upstream's does.
     */
    @Test
    void driverErrorsNameTheCall() throws Exception {
        Native.Result ends = runAxpy("error", "examples/own-objects/axpy/axpy.mlir", "examples/own-objects/axpy/main.c",
                "sm_80");
        assertEquals(134, ends.exit(), ends.err());
        assertEquals("", ends.out().strip());
        List<String> reports = ends.err().lines().filter(l -> l.startsWith("mgpu:")).toList();
        assertEquals(2, reports.size(), ends.err());
        String cause = "cuModuleLoadData failed: CUDA_ERROR_NO_BINARY_FOR_GPU (209)";
        assertEquals("mgpu: cuda: mgpuModuleGetFunctionLazy: " + cause, reports.get(0));
        assertTrue(reports.get(1).matches(String.format(LOAD_ABORT, "cuda", java.util.regex.Pattern.quote(cause))),
                reports.get(1));
        Native.Result r = runAxpy("error", "examples/own-objects/axpy/axpy.mlir", "examples/own-objects/axpy/main.c", "sm_80",
                "MGPU_ON_ERROR", "continue");
        assertNotEquals(0, r.exit());
        assertEquals("axpy: FAILED, 1023 of 1024 elements wrong", r.out().strip());
        assertEquals(List.of(
                "mgpu: cuda: mgpuModuleGetFunctionLazy: cuModuleLoadData failed: CUDA_ERROR_NO_BINARY_FOR_GPU (209)",
                "mgpu: cuda: mgpuLaunchKernel: cuLaunchKernel failed: CUDA_ERROR_INVALID_HANDLE (400)"),
                r.err().lines().filter(l -> l.startsWith("mgpu:")).toList());
    }

    /** The same on HIP: a gfx90a code object on a gfx942 device. */
    @Test
    void hipErrorsNameTheCall() throws Exception {
        Assumptions.assumeTrue(hipDriver != null, "requires the HIP headers");
        Path dir = Files.createDirectories(work.resolve("hip-error"));
        Path kernels = axpyKernels(dir);
        String source = withObject(ROOT.resolve("examples/own-objects/axpy/axpy.mlir"), "axpy", Format.HSACO.object);
        Path exe = Native.link(dir, "axpy", ROOT.resolve("examples/own-objects/axpy/main.c"),
                hostObject(dir, source, LoadStrategy.LAZY, Map.of("axpy", hsaco("gfx90a", "axpy"))));
        Native.Result ends = runOnHip("gfx942:sramecc+:xnack-", exe, kernels);
        assertEquals(134, ends.exit(), ends.err());
        List<String> reports = ends.err().lines().filter(l -> l.startsWith("mgpu:")).toList();
        assertEquals(2, reports.size(), ends.err());
        String cause = "hipModuleLoadData failed: hipErrorNoBinaryForGpu (209)";
        assertTrue(reports.get(1).matches(String.format(LOAD_ABORT, "hip", java.util.regex.Pattern.quote(cause))),
                reports.get(1));
        Native.Result r = runOnHip("gfx942:sramecc+:xnack-", exe, kernels, "MGPU_ON_ERROR", "continue");
        assertNotEquals(0, r.exit());
        assertEquals(List.of(
                "mgpu: hip: mgpuModuleGetFunctionLazy: hipModuleLoadData failed: hipErrorNoBinaryForGpu (209)",
                "mgpu: hip: mgpuLaunchKernel: hipModuleLaunchKernel failed: hipErrorInvalidHandle (400)"),
                r.err().lines().filter(l -> l.startsWith("mgpu:")).toList());
    }

    /**
     * The scripts that a GPU machine runs ({@code tests/gpu/prepare.sh}, {@code run-cuda-check.sh}), end to
     * end on the stand-in: nvcc's real cubins and PTX, every example, format and strategy, clusters, the fat
     * binary, the four kernels that mgpu compiles itself (their fat binaries, and nvcc's cubin of the same
     * kernels) and the launch benchmark (two launches; timings mean nothing here).
     */
    @Test
    void gpuCheckScriptsRun() throws Exception {
        Assumptions.assumeTrue(TestPaths.findTool("nvcc") != null, "requires nvcc");
        Path dir = Files.createDirectories(work.resolve("gpu-check"));
        Path prepared = dir.resolve("prepared");
        Native.exec(dir, Map.of(), "bash", ROOT.resolve("tests/gpu/prepare.sh").toString(), prepared.toString());
        Path kernels = dir.resolve("kernels.so");
        Native.exec(dir, Map.of(), "cc", "-shared", "-fPIC", "-O2", "-I" + Native.include(),
                ROOT.resolve("examples/own-objects/axpy/axpy_cpu.c").toString(),
                ROOT.resolve("examples/own-objects/stencil2d/stencil_cpu.c").toString(),
                ROOT.resolve("tests/e2e/mixed/mixed_cpu.c").toString(), "-o", kernels.toString());
        // The one-source examples' kernels run with the CPU objects of their own programs (the hand-written
        // axpy, which the examples of own objects use, computes the same as the compiled one).
        String libraries = String.join(":", List.of("axpy", "stencil2d", "matmul", "reduce").stream()
                .map(k -> prepared.resolve(k + ".ours.cpu.so").toString()).toList()) + ":" + kernels + ":"
                + prepared.resolve("printf.cpu.so") + ":" + prepared.resolve("globals.cpu.so") + ":"
                + prepared.resolve("subgroup.cpu.so") + ":" + prepared.resolve("allreduce.cpu.so") + ":"
                + prepared.resolve("views.cpu.so");
        Native.Result r = Native.run(dir, Map.of("LD_LIBRARY_PATH", driver.toString(), "FAKE_KERNELS",
                libraries, "FAKE_CUDA_CC", "90", "BENCH_ITERS", "2", "BENCH_REPEATS", "1", "KERNEL_REPS", "2", "KERNEL_TRIALS", "1"),
                List.of("bash", ROOT.resolve("tests/gpu/run-cuda-check.sh").toString(), prepared.toString()));
        String out = r.out() + r.err();
        assertEquals(0, r.exit(), out);
        List<String> verdicts = r.out().lines().filter(l -> l.startsWith("PASS ") || l.startsWith("FAIL ")).toList();
        assertEquals(53, verdicts.size(), out);
        assertTrue(verdicts.stream().allMatch(l -> l.startsWith("PASS ")), out);
        assertTrue(r.out().contains("\n53 passed, 0 failed\n"), out);
        // The kernels mgpu compiled itself arrive in one-source programs whose sm_90 object is picked; the
        // stand-in loads its fat binary and runs it through the program's CPU object.
        for (String k : List.of("axpy", "stencil2d", "matmul", "reduce")) {
            assertTrue(verdicts.contains("PASS " + k + " kernel (ours)"), out);
            assertTrue(verdicts.contains("PASS " + k + " kernel (ours-ptx)"), out);
            assertTrue(verdicts.contains("PASS " + k + " one source picks sm_90"), out);
            // Counted by cuobjdump where there is one, else from the cubins themselves.
            assertTrue(r.out().matches("(?s).*\n  SASS instructions of " + k + ": ours [1-9][0-9]*, nvcc [1-9][0-9]*\n.*"),
                    out);
        }
        // The benchmark's hand-written loop loads nvcc's cubin itself.
        assertTrue(r.err().contains("fake-cuda: cuModuleLoadData: cubin sm_90, kernels axpy"), out);
    }
}
