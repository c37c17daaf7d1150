package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What a developer looks at in a kernel: each target's files kept ({@code --save-temps}), each kernel's
 * registers, spills and memory ({@code --resource-usage}), ptxas given options of one's own ({@code -Xptxas},
 * upstream's {@code ptxas-cmd-options}), and the objects read back out of what was built
 * ({@code --extract-objects}). None of them changes the output.
 */
class LookInsideTest {
    private static Path dir;
    private static Path matmul;
    private static Path axpy;
    /** ptxas, which this machine may lack; its parts are checked where it is. */
    private static final Path PTXAS = TestPaths.findTool("ptxas");

    @BeforeAll
    static void setUp() throws Exception {
        dir = Files.createTempDirectory("mgpu-look").toRealPath();
        matmul = dir.resolve("matmul.mlir");
        axpy = dir.resolve("axpy.mlir");
        Files.copy(TestPaths.root().resolve("examples/kernels/matmul.mlir"), matmul);
        Files.copy(TestPaths.root().resolve("examples/kernels/axpy.mlir"), axpy);
    }

    private static CliTest.Result ok(String... args) {
        CliTest.Result r = CliTest.run(args);
        assertEquals(0, r.code(), r.err());
        return r;
    }

    private static List<String> names(Path d) throws Exception {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static int elfMachine(byte[] b) {
        assertTrue(b.length > 20 && b[0] == 0x7f && b[1] == 'E', "not ELF");
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getShort(18) & 0xffff;
    }

    @Test
    void saveTempsKeepsEachTargetsFilesAndChangesNothing() throws Exception {
        Path temps = dir.resolve("temps");
        ok(matmul.toString(), "-o", dir.resolve("plain.o").toString());
        ok("--save-temps=" + temps, matmul.toString(), "-o", dir.resolve("kept.o").toString());
        assertArrayEquals(Files.readAllBytes(dir.resolve("plain.o")), Files.readAllBytes(dir.resolve("kept.o")));

        List<String> expected = new ArrayList<>();
        for (String t : List.of("cpu-host", "gfx90a", "sm_80", "sm_90")) {
            String base = "matmul.matmul_kernels." + t + ".";
            expected.add(base + "ll");
            if (t.startsWith("sm_")) {
                expected.add(base + "ptx");
                if (PTXAS != null) {
                    expected.add(base + "cubin");
                    expected.add(base + "fatbin");
                }
            } else {
                expected.add(base + "s");
                expected.add(base + (t.equals("gfx90a") ? "hsaco" : "so"));
            }
        }
        assertEquals(expected.stream().sorted().toList(), names(temps));
        String ll = Files.readString(temps.resolve("matmul.matmul_kernels.sm_90.ll"));
        assertTrue(ll.contains("target triple = \"nvptx64-nvidia-cuda\"") && ll.contains("define ptx_kernel void @matmul"),
                ll);
        assertTrue(Files.readString(temps.resolve("matmul.matmul_kernels.sm_90.ptx")).contains(".target sm_90"));
        assertTrue(Files.readString(temps.resolve("matmul.matmul_kernels.gfx90a.s")).contains(".amdgcn_target"));
        assertEquals(224, elfMachine(Files.readAllBytes(temps.resolve("matmul.matmul_kernels.gfx90a.hsaco"))));
        assertEquals(62, elfMachine(Files.readAllBytes(temps.resolve("matmul.matmul_kernels.cpu-host.so"))));
        if (PTXAS != null) {
            assertEquals(190, elfMachine(Files.readAllBytes(temps.resolve("matmul.matmul_kernels.sm_90.cubin"))));
        }

        // =obj: beside the output, as clang's.
        Path obj = dir.resolve("obj");
        Files.createDirectories(obj);
        ok("-save-temps=obj", "--emit=llvm", axpy.toString(), "-o", obj.resolve("h.ll").toString());
        assertTrue(names(obj).containsAll(List.of("h.ll", "axpy.axpy_kernels.cpu-host.so",
                "axpy.axpy_kernels.gfx90a.hsaco", "axpy.axpy_kernels.sm_90.ptx")), names(obj).toString());
    }

    @Test
    void resourceUsagePerKernelAndTargetAgreesOnSharedMemory() throws Exception {
        CliTest.Result r = ok("--resource-usage", matmul.toString(), "-o", dir.resolve("ru.o").toString());
        String at = matmul + ":7:5: note: @matmul for ";
        // Two 16x16 f32 tiles of workgroup memory: 2048 bytes on every target.
        assertTrue(Pattern.compile(Pattern.quote(at) + "gfx90a: \\d+ VGPRs, 0 AGPRs, \\d+ SGPRs, 0 VGPR spills, 0 SGPR"
                + " spills, 0 bytes scratch, 2048 bytes shared, max 256 threads per block\n").matcher(r.err()).find(),
                r.err());
        assertTrue(Pattern.compile(Pattern.quote(at) + "cpu \\(host\\): \\d+ bytes stack frame, 2048 bytes shared per"
                + " block\n").matcher(r.err()).find(), r.err());
        if (PTXAS == null) {
            assertTrue(r.err().contains("note: ptxas not found"), r.err());
            return;
        }
        Matcher sm90 = Pattern.compile(Pattern.quote(at) + "sm_90: (\\d+) registers, 0 bytes stack, 0 bytes spill"
                + " stores, 0 bytes spill loads, 2048 bytes shared, max (\\d+) threads per block\n").matcher(r.err());
        assertTrue(sm90.find(), r.err());
        assertTrue(Integer.parseInt(sm90.group(1)) > 24, r.err());
        assertTrue(r.err().contains(at + "sm_80: "), r.err());
        assertArrayEquals(Files.readAllBytes(dir.resolve("ru.o")), Files.readAllBytes(plainObject()));

        // With --gpu-format=assembly too: ptxas runs for the report alone, and PTX is embedded.
        CliTest.Result asm = ok("--resource-usage", "--gpu-format=assembly", "--targets=nvvm:sm_90", axpy.toString(),
                "--emit=mlir", "--compile-kernels");
        assertTrue(asm.err().contains(axpy + ":6:5: note: @axpy for sm_90: "), asm.err());
        assertTrue(Pattern.compile("#gpu.object<#nvvm.target<chip = \"sm_90\">, properties = \\{[^}]*\\}, assembly ="
                + " \"//").matcher(asm.text()).find(), asm.text());
    }

    private static Path plainObject() {
        Path p = dir.resolve("plain-ru.o");
        if (!Files.exists(p)) {
            ok(matmul.toString(), "-o", p.toString());
        }
        return p;
    }

    @Test
    void ptxasTakesOptionsOfOneOwnAndOfTheTarget() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(PTXAS != null, "ptxas is not on PATH");
        // What ptxas is given changes what it makes: the cubin at -O0 is not the one at the default -O2.
        Path o2 = dir.resolve("ptxas-default");
        Path o0 = dir.resolve("ptxas-o0");
        ok("--gpu-format=binary", axpy.toString(), "-o", dir.resolve("o2.o").toString());
        ok("--gpu-format=binary", "-Xptxas", "-O0", axpy.toString(), "-o", dir.resolve("o0.o").toString());
        ok("--extract-objects", dir.resolve("o2.o").toString(), "-o", o2.toString());
        ok("--extract-objects", dir.resolve("o0.o").toString(), "-o", o0.toString());
        assertFalse(java.util.Arrays.equals(Files.readAllBytes(o2.resolve("axpy_kernels.0.sm_90.cubin")),
                Files.readAllBytes(o0.resolve("axpy_kernels.0.sm_90.cubin"))));
        assertArrayEquals(Files.readAllBytes(o2.resolve("axpy_kernels.2.gfx90a.hsaco")),
                Files.readAllBytes(o0.resolve("axpy_kernels.2.gfx90a.hsaco")));

        // Each spelling reaches ptxas, in order, after the target's own; -### shows them.
        String nv = Files.readString(axpy).replace("#nvvm.target<chip = \"sm_90\">",
                "#nvvm.target<chip = \"sm_90\", flags = {\"ptxas-cmd-options\" = [\"--warn-on-spills\"]}>");
        Path flagged = dir.resolve("flagged.mlir");
        Files.writeString(flagged, nv);
        CliTest.Result shown = ok("-###", "-Xptxas", "-lineinfo,--warn-on-local-memory-usage", "-Xcuda-ptxas",
                "--allow-expensive-optimizations=true", "--ptxas-cmd-options=--verbose  --warn-on-double-precision-use",
                flagged.toString(), "-o", dir.resolve("shown.o").toString());
        assertTrue(shown.err().contains("\"-arch=sm_90\" \"-O2\" \"--warn-on-spills\" \"-lineinfo\""
                + " \"--warn-on-local-memory-usage\" \"--allow-expensive-optimizations=true\" \"--verbose\""
                + " \"--warn-on-double-precision-use\" \""), shown.err());
        assertTrue(shown.err().contains("\"-arch=sm_80\" \"-O2\" \"-lineinfo\""), shown.err());

        // An option ptxas refuses is the module's located error, naming ptxas and what it said.
        CliTest.Result bad = CliTest.run("-Xptxas", "--no-such-option", axpy.toString(), "-o",
                dir.resolve("bad.o").toString());
        assertEquals(1, bad.code());
        assertTrue(bad.err().startsWith(axpy + ":5:3: error: Invalid kernels for ptxas (must be accepted; it exited"
                + " with 255): ptxas fatal   : Unknown option '-no-such-option'\n"), bad.err());
        assertFalse(Files.exists(dir.resolve("bad.o")));
    }

    @Test
    void extractObjectsReadsBackWhatWasEmbedded() throws Exception {
        Path temps = dir.resolve("temps-x");
        ok("--save-temps=" + temps, axpy.toString(), "-o", dir.resolve("x.o").toString());
        ok(axpy.toString(), "--emit=bc", "-o", dir.resolve("x.bc").toString());
        for (String input : List.of("x.o", "x.bc")) {
            Path out = dir.resolve("out-" + input);
            CliTest.Result r = ok("--extract-objects", dir.resolve(input).toString(), "-o", out.toString());
            String fat = PTXAS != null ? "fatbin" : "ptx";
            List<String> expected = List.of("axpy_kernels.0.sm_90." + fat, "axpy_kernels.1.sm_80." + fat,
                    "axpy_kernels.2.gfx90a.hsaco", "axpy_kernels.3.cpu.so");
            assertEquals(expected, names(out), r.text());
            assertTrue(r.text().startsWith(out.resolve(expected.get(0)) + " "), r.text());
            assertArrayEquals(Files.readAllBytes(temps.resolve("axpy.axpy_kernels.gfx90a.hsaco")),
                    Files.readAllBytes(out.resolve("axpy_kernels.2.gfx90a.hsaco")));
            assertArrayEquals(Files.readAllBytes(temps.resolve("axpy.axpy_kernels.cpu-host.so")),
                    Files.readAllBytes(out.resolve("axpy_kernels.3.cpu.so")));
            assertArrayEquals(Files.readAllBytes(temps.resolve("axpy.axpy_kernels.sm_90." + fat)),
                    Files.readAllBytes(out.resolve(expected.get(0))));
        }
        // PTX embedded as text (a NUL after it) comes back as the file ptxas reads.
        ok("--gpu-format=assembly", "--targets=nvvm:sm_90", axpy.toString(), "-o", dir.resolve("p.ll").toString());
        Path ptx = dir.resolve("out-p");
        ok("--extract-objects", dir.resolve("p.ll").toString(), "--output-dir=" + ptx);
        assertArrayEquals(Files.readAllBytes(temps.resolve("axpy.axpy_kernels.sm_90.ptx")),
                Files.readAllBytes(ptx.resolve("axpy_kernels.0.sm_90.ptx")));

        // What is not a host module is an error, and nothing is written.
        CliTest.Result mlir = CliTest.run("--extract-objects", axpy.toString(), "-o", dir.resolve("none").toString());
        assertEquals(1, mlir.code());
        assertEquals(axpy + ": error: Invalid input for --extract-objects (must be an ELF file, LLVM IR or bitcode of a"
                + " host module): LLVM does not read it: expected top-level entity\n", mlir.err());
        Path truncated = dir.resolve("truncated.o");
        byte[] whole = Files.readAllBytes(dir.resolve("x.o"));
        Files.write(truncated, java.util.Arrays.copyOf(whole, 200));
        CliTest.Result cut = CliTest.run("--extract-objects", truncated.toString(), "-o", dir.resolve("none").toString());
        assertEquals(1, cut.code());
        assertEquals(truncated + ": error: Invalid input for --extract-objects (must be an ELF file, LLVM IR or bitcode"
                + " of a host module): a section or symbol lies outside the file\n", cut.err());
        assertFalse(Files.exists(dir.resolve("none")));
        Files.writeString(dir.resolve("plain.ll"), "define void @f() {\n  ret void\n}\n", StandardCharsets.UTF_8);
        CliTest.Result empty = CliTest.run("--extract-objects", dir.resolve("plain.ll").toString());
        assertEquals(1, empty.code());
        assertTrue(empty.err().endsWith("(must embed kernel objects): none found\n"), empty.err());
    }

    /**
     * LLVM's IR parser recurses once per nested type, and a type nested 200,000 deep overflows its stack: in
     * the JVM that ended the JVM with SIGSEGV (exit 139); read in a process of its own, it is an error of
     * the input. The same run with the reader in this process still dies, which shows the input does crash it.
     */
    @Test
    void extractObjectsSurvivesLlvmsReaderCrashing() throws Exception {
        Path deep = dir.resolve("deep.ll");
        int n = 200_000;
        Files.writeString(deep, "@g = global " + "[1 x ".repeat(n) + "i8" + "]".repeat(n) + " zeroinitializer\n");
        List<String> cmd = List.of(TestPaths.root().resolve("tools/gpu-translate").toString(), "--extract-objects",
                deep.toString(), "-o", dir.resolve("none-deep").toString());
        Native.Result r = Native.run(dir, java.util.Map.of("MGPU_SERVER", "0"), cmd);
        assertEquals(1, r.exit(), r.err());
        assertEquals(deep + ": error: Invalid input for --extract-objects (must be an ELF file, LLVM IR or bitcode of a"
                + " host module): LLVM's reader crashed (SIGSEGV) in a process of its own\n", r.err());
        Native.Result here = Native.run(dir, java.util.Map.of("MGPU_SERVER", "0", "MGPU_BACKEND_PROCESS", "shared"),
                cmd);
        assertTrue(here.exit() > 128, here.exit() + " " + here.err());
        assertFalse(Files.exists(dir.resolve("none-deep")));
    }
}
