package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.tools.GpuTranslate;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The gpu-translate contract: every option and every exit code, run in-process. */
class CliTest {
    private static Path dir;
    private static Path good;
    private static Path bad;

    static final String GOOD = "module attributes {gpu.container_module} {\n"
            + "  gpu.binary @k [#gpu.object<#nvvm.target, \"AB\">]\n"
            + "  llvm.func @f() {\n"
            + "    %c1 = llvm.mlir.constant(1 : i64) : i64\n"
            + "    gpu.launch_func @k::@kern blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64\n"
            + "    llvm.return\n"
            + "  }\n"
            + "}\n";

    record Result(int code, byte[] out, String err) {
        String text() {
            return new String(out, StandardCharsets.UTF_8);
        }
    }

    @BeforeAll
    static void setUp() throws Exception {
        dir = Files.createTempDirectory("mgpu-cli");
        good = dir.resolve("good.mlir");
        Files.writeString(good, GOOD);
        bad = dir.resolve("bad.mlir");
        Files.writeString(bad, "module {\n  gpu.binary @b <#gpu.select_object<-2>> [#gpu.object<#nvvm.target, \"\">]\n}\n");
    }

    static Result run(byte[] stdin, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = GpuTranslate.run(args, new ByteArrayInputStream(stdin), out,
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    static Result run(String... args) {
        return run(new byte[0], args);
    }

    @Test
    void helpAndVersion() {
        Result h = run("--help");
        assertEquals(0, h.code());
        assertTrue(h.text().contains("--module-load"), h.text());
        Result v = run("--version");
        assertEquals(0, v.code());
        // The project's version from the build, and the version of the LLVM it generates code with.
        assertTrue(v.text().matches("gpu-translate 0\\.1\\.0(-SNAPSHOT)?\n  LLVM 20\\.1\\.[0-9]+\n"), v.text());
    }

    /**
     * Which arguments an executable links, by their names as cc takes them: objects, archives and shared
     * libraries, versioned or not, in any directory; any other name is an input.
     */
    @Test
    void linkInputsAreKnownByTheirNames() {
        for (String name : List.of("a.o", "lib.a", "libx.so", "libx.so.1", "libx.so.1.22", "d/libx.so.3", "x.so.so",
                "x.so.1.so", "my.so.d/x.o")) {
            Result r = run("--emit=llvm", good.toString(), name);
            assertEquals(2, r.code(), name);
            assertEquals("gpu-translate: error: Invalid " + name + " (objects, libraries and -l/-L are linked only with"
                    + " --emit=exe)\n", r.err(), name);
        }
        for (String name : List.of(".so", "d/.so.1", "x.so.", "x.so.1a", "x.sox", "x.so.1.", "x.so..1", "a\nb.so",
                "a\u2028b.so.1", "x.so/y")) {
            Result r = run("--emit=llvm", good.toString(), name);
            assertEquals(2, r.code(), name);
            assertTrue(r.err().startsWith("gpu-translate: error: Invalid argument (must be the only INPUT, or give"
                    + " --output-dir for several): " + name + "\n"), name + ": " + r.err());
        }
    }

    /** Values as {@code --name=VALUE} or the next argument, {@code -oFILE}, the last of two, and {@code --}. */
    @Test
    void optionSpellings() throws Exception {
        Path a = dir.resolve("spell-a.mlir");
        Path b = dir.resolve("spell-b.ll");
        Path c = dir.resolve("spell-c.mlir");
        assertEquals(0, run("--emit", "mlir", "-o", a.toString(), good.toString()).code());
        assertEquals(0, run("--emit=llvm", "-o" + b, good.toString()).code());
        assertEquals(0, run("-o=" + dir.resolve("unused.mlir"), "-o", c.toString(), "--", good.toString()).code());
        assertTrue(Files.readString(a).startsWith("module attributes {gpu.container_module}"));
        assertTrue(Files.readString(b).contains("@k_bin_cst"));
        assertEquals(Files.readString(a), Files.readString(c));
        assertFalse(Files.exists(dir.resolve("unused.mlir")));
        Result dash = run("--", "-o");
        assertEquals(1, dash.code());
        assertEquals("-o: error: Invalid input (must be a readable file): no such file", dash.err().strip());
    }

    @Test
    void badUsageExitsTwo() {
        Result unknown = run("--no-such-option", good.toString());
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().startsWith("gpu-translate: error: Invalid option (must be one that --help lists):"
                + " --no-such-option\n"), unknown.err());
        Result twoInputs = run(good.toString(), good.toString());
        assertEquals(2, twoInputs.code());
        assertTrue(twoInputs.err().startsWith("gpu-translate: error: Invalid argument (must be the only INPUT, or"
                + " give --output-dir for several): " + good), twoInputs.err());
        Result noValue = run(good.toString(), "-o");
        assertEquals(2, noValue.code());
        assertTrue(noValue.err().startsWith("gpu-translate: error: Invalid -o (must be followed by its value): end"
                + " of arguments"), noValue.err());
        Result flagValue = run("--split-input-file=yes", good.toString());
        assertEquals(2, flagValue.code());
        assertTrue(flagValue.err().startsWith("gpu-translate: error: Invalid --split-input-file (must have no"
                + " value): --split-input-file=yes"), flagValue.err());
        Result emit = run("--emit=wasm", good.toString());
        assertEquals(2, emit.code());
        assertEquals("gpu-translate: error: Invalid --emit (must be mlir, llvm, bc, obj, asm or exe): wasm",
                emit.err().strip());
        Result load = run("--module-load=eager", good.toString());
        assertEquals(2, load.code());
        assertEquals("gpu-translate: error: Invalid --module-load (must be lazy, ctor or per-launch): eager",
                load.err().strip());
        Result embed = run("--embed", "nothing", good.toString());
        assertEquals(2, embed.code());
        assertEquals("gpu-translate: error: Invalid --embed (must be NAME=FILE): nothing", embed.err().strip());
        Result ext = run(good.toString(), "-o", dir.resolve("out.txt").toString());
        assertEquals(2, ext.code());
        assertEquals("gpu-translate: error: Invalid -o extension (must be .mlir, .ll, .bc, .o, .s, or none for an"
                + " executable; or give --emit): " + dir.resolve("out.txt"), ext.err().strip());
        Result exe = run("--emit=exe", good.toString());
        assertEquals(2, exe.code());
        assertTrue(exe.err().contains("must be a file given with -o"), exe.err());
    }

    /**
     * The habits of clang and the MLIR tools: no INPUT reads stdin; @FILE response files (quoted, nested);
     * long options with one dash; a suggestion for a mistyped option; --color.
     */
    @Test
    void commandLineHabits() throws Exception {
        Result stdin = run(GOOD.getBytes(StandardCharsets.UTF_8), "--emit=mlir");
        assertEquals(0, stdin.code(), stdin.err());
        assertTrue(stdin.text().contains("gpu.binary @k"), stdin.text());

        Path out = dir.resolve("from rsp.ll");
        Path inner = dir.resolve("inner.rsp");
        Files.writeString(inner, "--emit=llvm\n");
        Path rsp = dir.resolve("args.rsp");
        Files.writeString(rsp, "@" + inner + " -o '" + out + "'\n  \"" + good + "\"\n");
        Result viaFile = run("@" + rsp);
        assertEquals(0, viaFile.code(), viaFile.err());
        assertArrayEquals(run("--emit=llvm", good.toString()).out(), Files.readAllBytes(out));
        Result missing = run("@" + dir.resolve("nope.rsp"));
        assertEquals(2, missing.code());
        assertEquals("gpu-translate: error: Invalid response file (must be readable): @" + dir.resolve("nope.rsp")
                + ": no such file", missing.err().lines().findFirst().orElse(""));
        Path loop = dir.resolve("loop.rsp");
        Files.writeString(loop, "@" + loop);
        Result deep = run("@" + loop);
        assertEquals(2, deep.code());
        assertTrue(deep.err().startsWith("gpu-translate: error: Invalid response file (must nest at most 16 deep)"),
                deep.err());

        Result oneDash = run("-emit=mlir", "-mlir-print-op-generic", "-split-input-file", good.toString());
        assertEquals(0, oneDash.code(), oneDash.err());
        assertTrue(oneDash.text().contains("\"gpu.binary\"()"), oneDash.text());

        Result typo = run("--emitt=llvm", good.toString());
        assertEquals(2, typo.code());
        assertEquals("gpu-translate: error: Invalid option (must be one that --help lists; did you mean --emit?):"
                + " --emitt=llvm", typo.err().lines().findFirst().orElse(""));
        Result typo2 = run("-splitinput-file", good.toString());
        assertTrue(typo2.err().contains("did you mean --split-input-file?"), typo2.err());

        Result plain = run("--color=never", bad.toString());
        Result color = run("--color=always", bad.toString());
        assertEquals(1, color.code());
        assertFalse(plain.err().contains("\u001B"), plain.err());
        assertTrue(color.err().startsWith("\u001B[1m" + bad + ":2:"), color.err());
        assertTrue(color.err().contains("\u001B[1;31merror: \u001B[0m\u001B[1mInvalid"), color.err());
        assertEquals(plain.err(), color.err().replaceAll("\u001B\\[[0-9;]*m", ""));
        Result badColor = run("--color=sometimes", good.toString());
        assertEquals(2, badColor.code());
        assertEquals("gpu-translate: error: Invalid --color (must be auto, always or never): sometimes",
                badColor.err().strip());
    }

    /**
     * -MD writes host.d for -o host.o (-MF FILE elsewhere) naming the input and every --embed file, escaped as Make
     * reads names; Make then rebuilds when an embedded file changes, and not before.
     */
    @Test
    void dependencyFilesDriveMake() throws Exception {
        Path d = Files.createDirectories(dir.resolve("dep dir"));
        Path in = d.resolve("host.mlir");
        Files.writeString(in, GOOD.replace("\"AB\"", "\"@file:k\""));
        Path blob = d.resolve("k $1.cubin");
        Files.writeString(blob, "cubin");
        Path out = d.resolve("host.o");
        Result r = run("-MD", "--embed", "k=" + blob, in.toString(), "-o", out.toString());
        assertEquals(0, r.code(), r.err());
        String esc = d.toString().replace(" ", "\\ ");
        assertEquals(esc + "/host.o: \\\n  " + esc + "/host.mlir \\\n  " + esc + "/k\\ $$1.cubin\n",
                Files.readString(d.resolve("host.d")));
        Path mf = d.resolve("custom.d");
        assertEquals(0, run("-MF", mf.toString(), "--embed", "k=" + blob, in.toString(), "-o", out.toString()).code());
        assertEquals(Files.readString(d.resolve("host.d")), Files.readString(mf));
        Result toStdout = run("-MF", "-", "--embed", "k=" + blob, in.toString(), "-o", out.toString());
        assertEquals(0, toStdout.code(), toStdout.err());
        assertEquals(Files.readString(mf), toStdout.text());
        Result noTarget = run("-MD", in.toString());
        assertEquals(2, noTarget.code());
        assertEquals("gpu-translate: error: Invalid -MD/-MF (must come with -o FILE, the target the dependency file"
                + " names): no -o", noTarget.err().strip());

        Files.writeString(d.resolve("Makefile"), esc + "/host.o:\n\ttouch host.o\n-include host.d\n");
        Files.setLastModifiedTime(out, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()));
        assertEquals(0, Native.run(d, java.util.Map.of(), List.of("make", "-q", esc.replace("\\ ", " ") + "/host.o")).exit(), "up to date");
        Files.setLastModifiedTime(blob, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5000));
        assertEquals(1, Native.run(d, java.util.Map.of(), List.of("make", "-q", esc.replace("\\ ", " ") + "/host.o")).exit(),
                "a newer --embed file must make the output out of date");
    }

    /**
     * --output-dir translates several inputs in one run, each to DIR/NAME.EXT, byte for byte as separate
     * runs would; a bad input fails alone (exit 1) while the others are written; several inputs without
     * it, or with -o, are exit 2.
     */
    @Test
    void severalInputsInOneRun() throws Exception {
        Path a = dir.resolve("many-a.mlir");
        Path b = dir.resolve("many-b.mlir");
        Files.writeString(a, GOOD);
        Files.writeString(b, GOOD.replace("@k", "@q"));
        Path out = dir.resolve("many out/sub");
        Result r = run("--output-dir", out.toString(), "--emit=bc", a.toString(), b.toString());
        assertEquals(0, r.code(), r.err());
        assertArrayEquals(run("--emit=bc", a.toString(), "-o", "-").out(), Files.readAllBytes(out.resolve("many-a.bc")));
        assertArrayEquals(run("--emit=bc", b.toString(), "-o", "-").out(), Files.readAllBytes(out.resolve("many-b.bc")));
        Result mixed = run("--output-dir", out.toString(), bad.toString(), a.toString());
        assertEquals(1, mixed.code());
        assertTrue(mixed.err().startsWith(bad + ":2:"), mixed.err());
        assertTrue(Files.exists(out.resolve("many-a.ll")) && !Files.exists(out.resolve("bad.ll")));
        Result two = run(a.toString(), b.toString());
        assertEquals(2, two.code());
        assertTrue(two.err().startsWith("gpu-translate: error: Invalid argument (must be the only INPUT, or give"
                + " --output-dir for several): " + b), two.err());
        Result both = run("--output-dir", out.toString(), "-o", "x.ll", a.toString());
        assertEquals(2, both.code());
        assertTrue(both.err().startsWith("gpu-translate: error: Invalid -o with --output-dir (must be one or the"
                + " other): -o x.ll\n"), both.err());
    }

    /** Several parts cannot be one file of LLVM IR: refused, with no file written; stdout still joins them. */
    @Test
    void splitInputToOneIrFileIsRefused() throws Exception {
        Path two = dir.resolve("two.mlir");
        Files.writeString(two, GOOD + "// -----\n" + GOOD);
        Path ll = dir.resolve("two.ll");
        Result r = run("--split-input-file", two.toString(), "-o", ll.toString());
        assertEquals(2, r.code());
        assertEquals("gpu-translate: error: Invalid --split-input-file with --emit=llvm -o FILE (must have one part,"
                + " as a file of LLVM IR holds one module; several parts go to stdout): 2 parts", r.err().strip());
        assertFalse(Files.exists(ll));
        Result stdout = run("--split-input-file", two.toString());
        assertEquals(0, stdout.code(), stdout.err());
        assertTrue(stdout.text().contains("// -----"), stdout.text());
    }

    /**
     * -O0 to -O3 reach LLVM's code generator (-O2 is the default, as llc's), and an unknown or unusable
     * CPU or feature is refused with exit 2 before LLVM could abort the process.
     */
    @Test
    void codegenLevelCpuAndFeatures() throws Exception {
        String[] asm = new String[4];
        for (int level = 0; level <= 3; level++) {
            Result r = run("-O" + level, "--emit=asm", good.toString());
            assertEquals(0, r.code(), r.err());
            asm[level] = r.text();
        }
        Result plain = run("--emit=asm", good.toString());
        assertEquals(asm[2], plain.text());
        assertFalse(asm[0].equals(asm[2]), "-O0 generated the code -O2 did");
        Result o4 = run("-O4", good.toString());
        assertEquals(2, o4.code());
        assertEquals("gpu-translate: error: Invalid optimisation level (must be -O0, -O1, -O2, -O3, -O, -Os, -Oz or -Og):"
                + " -O4",
                o4.err().lines().findFirst().orElse(""));
        Result unknown = run("--mcpu=nosuchcpu", "--emit=obj", "-o", dir.resolve("cpu.o").toString(), good.toString());
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().startsWith("gpu-translate: error: Invalid CPU (must be one LLVM knows for "),
                unknown.err());
        assertTrue(unknown.err().strip().endsWith("): nosuchcpu"), unknown.err());
        assertFalse(Files.exists(dir.resolve("cpu.o")));
        Result feature = run("--mattr=+nosuchfeature", good.toString());
        assertEquals(2, feature.code());
        assertTrue(feature.err().strip().endsWith("): +nosuchfeature"), feature.err());
        // A known CPU without 64-bit mode makes LLVM abort on an x86_64 triple; mgpu refuses it instead.
        Result i386 = run("--mcpu=i386", "--target-triple=x86_64-unknown-linux-gnu", "--emit=asm", good.toString());
        assertEquals(2, i386.code());
        assertTrue(i386.err().contains("64-bit code requested on a subtarget that doesn't support it!"), i386.err());
        Result znver = run("--mcpu=znver3", "--mattr=+avx2,-sse4a", "--target-triple=x86_64-unknown-linux-gnu",
                "--emit=llvm", good.toString());
        assertEquals(0, znver.code(), znver.err());
        assertTrue(znver.text().contains("\"target-cpu\"=\"znver3\" \"target-features\"=\"+avx2,-sse4a\""),
                znver.text());
    }

    @Test
    void unreadableInputExitsOne() {
        Result missing = run(dir.resolve("missing.mlir").toString());
        assertEquals(1, missing.code());
        assertEquals(dir.resolve("missing.mlir") + ": error: Invalid input (must be a readable file): no such file",
                missing.err().strip());
        Result directory = run(dir.toString());
        assertEquals(1, directory.code());
        assertTrue(directory.err().startsWith(dir + ": error: Invalid input (must be a readable file)"),
                directory.err());
        Result embed = run("--embed", "k=" + dir.resolve("nope.bin"), good.toString());
        assertEquals(1, embed.code());
        assertTrue(embed.err().contains("Invalid --embed file (must be readable)"), embed.err());
    }

    @Test
    void badInputExitsOneWithLocationCaretAndNoOutputFile() throws Exception {
        Path out = dir.resolve("never.ll");
        Result r = run(bad.toString(), "-o", out.toString());
        assertEquals(1, r.code());
        assertEquals(bad + ":2:3: error: Invalid object index (must be >= 0): -2\n"
                + "  gpu.binary @b <#gpu.select_object<-2>> [#gpu.object<#nvvm.target, \"\">]\n"
                + "  ^", r.err().strip());
        assertFalse(Files.exists(out));
        try (var s = Files.list(dir)) {
            assertTrue(s.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "temporary file left");
        }
        Result parse = run(new byte[] {'m', 'o', 'd', 'u', 'l', 'e', ' ', '{'}, "-", "-o", out.toString());
        assertEquals(1, parse.code());
        assertTrue(parse.err().startsWith("<stdin>:1:9: error: Invalid syntax (must be '}'): end of input"),
                parse.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void emitKindsFollowOptionOrExtension() throws Exception {
        Result ll = run(good.toString());
        assertEquals(0, ll.code(), ll.err());
        assertTrue(ll.text().contains("@k_bin_cst = internal constant [2 x i8] c\"AB\", align 8"), ll.text());

        Path bc = dir.resolve("x.bc");
        assertEquals(0, run(good.toString(), "-o", bc.toString()).code());
        byte[] b = Files.readAllBytes(bc);
        assertArrayEquals(new byte[] {'B', 'C', (byte) 0xC0, (byte) 0xDE}, Arrays.copyOf(b, 4));

        Path o = dir.resolve("x.o");
        assertEquals(0, run(good.toString(), "-o", o.toString()).code());
        assertArrayEquals(new byte[] {0x7F, 'E', 'L', 'F'}, Arrays.copyOf(Files.readAllBytes(o), 4));

        Path s = dir.resolve("x.s");
        assertEquals(0, run(good.toString(), "-o", s.toString()).code());
        assertTrue(Files.readString(s).contains("mgpuModuleGetFunctionLazy"));

        Path m = dir.resolve("x.mlir");
        assertEquals(0, run(good.toString(), "-o", m.toString()).code());
        assertTrue(Files.readString(m).startsWith("module attributes {gpu.container_module} {"));

        // Outputs get the permissions of any new file (the umask's), not a temporary file's owner-only ones.
        Path plain = Files.createFile(dir.resolve("plain.txt"));
        for (Path p : List.of(bc, o, s, m)) {
            assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(p), p.toString());
        }

        Result explicit = run("--emit=mlir", "-o", "-", good.toString());
        assertEquals(0, explicit.code());
        assertTrue(explicit.text().contains("gpu.binary @k [#gpu.object<#nvvm.target, \"AB\">]"));

        Result bcOut = run("--emit=bc", "-o", "-", good.toString());
        assertEquals(0, bcOut.code());
        assertEquals('B', bcOut.out()[0]);

        Result arm = run("--emit=obj", "--target-triple", "aarch64-unknown-linux-gnu", "-o", "-", good.toString());
        assertEquals(0, arm.code(), arm.err());
        assertEquals(183, arm.out()[18] & 0xFF, "ELF machine must be AArch64");

        Result badTriple = run("--target-triple", "mips-unknown-linux-gnu", good.toString());
        assertEquals(2, badTriple.code());
        assertTrue(badTriple.err().contains("Invalid target triple (must be an x86_64 or aarch64 triple)"));
    }

    @Test
    void stdinAndModuleLoad() {
        Result r = run(GOOD.getBytes(StandardCharsets.UTF_8), "--module-load=per-launch", "-");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.text().contains("call ptr @mgpuModuleLoad(ptr @k_bin_cst, i64 2)"), r.text());
        assertTrue(r.text().contains("call void @mgpuModuleUnload("), r.text());
        Result c = run(GOOD.getBytes(StandardCharsets.UTF_8), "--module-load=ctor", "-");
        assertTrue(c.text().contains("@llvm.global_ctors"), c.text());
    }

    @Test
    void splitInputFileAndVerifyDiagnostics() throws Exception {
        Path split = dir.resolve("split.mlir");
        Files.writeString(split, GOOD + "// -----\n" + GOOD.replace("@k", "@q"));
        Result r = run("--split-input-file", split.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.text().contains("@k_bin_cst") && r.text().contains("// -----\n")
                && r.text().contains("@q_bin_cst"), r.text());

        Path diag = dir.resolve("diag.mlir");
        Files.writeString(diag, "module {\n  // expected-error @+1 {{Invalid object index (must be >= 0): -2}}\n"
                + "  gpu.binary @b <#gpu.select_object<-2>> [#gpu.object<#nvvm.target, \"\">]\n}\n");
        assertEquals(0, run("--verify-diagnostics", diag.toString()).code());
        Files.writeString(diag, "module {\n  // expected-error @+1 {{something else}}\n"
                + "  gpu.binary @b <#gpu.select_object<-2>> [#gpu.object<#nvvm.target, \"\">]\n}\n");
        Result miss = run("--verify-diagnostics", diag.toString());
        assertEquals(1, miss.code());
        assertTrue(miss.err().contains("expected error \"something else\" on line 3 was not produced"), miss.err());
        assertTrue(miss.err().contains("unexpected error: Invalid object index (must be >= 0): -2"), miss.err());
    }

    @Test
    void verifyDiagnosticsFailsOnAnExpectedNoteNotProduced() throws Exception {
        // The error alone matches; the note mgpu does not emit must still count as missing.
        Path diag = dir.resolve("note.mlir");
        Files.writeString(diag, "module {\n"
                + "  // expected-note @below {{the object is here}}\n"
                + "  // expected-error @below {{Invalid object index (must be >= 0): -2}}\n"
                + "  gpu.binary @b <#gpu.select_object<-2>> [#gpu.object<#nvvm.target, \"\">]\n"
                + "  // expected-warning @-1 {{unused}}\n"
                + "  // expected-remark @above {{noted}}\n"
                + "}\n");
        Result r = run("--verify-diagnostics", diag.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains(diag + ":2: error: expected note \"the object is here\" on line 4 was not produced"),
                r.err());
        assertTrue(r.err().contains(diag + ":5: error: expected warning \"unused\" on line 4 was not produced"),
                r.err());
        assertTrue(r.err().contains(diag + ":6: error: expected remark \"noted\" on line 4 was not produced"),
                r.err());
        assertTrue(!r.err().contains("expected error") && !r.err().contains("unexpected"), r.err());
    }

    @Test
    void embedFromFile() throws Exception {
        Path blob = dir.resolve("k.cubin");
        Files.write(blob, new byte[] {0, 1, 2, (byte) 0xFF});
        Path src = dir.resolve("embed.mlir");
        Files.writeString(src, GOOD.replace("\"AB\"", "\"@file:kernel\""));
        Result r = run("--embed", "kernel=" + blob, src.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.text().contains("@k_bin_cst = internal constant [4 x i8] c\"\\00\\01\\02\\FF\", align 8"), r.text());
        Result missing = run(src.toString());
        assertEquals(1, missing.code());
        assertTrue(missing.err().contains("embed.mlir:2:3: error: Invalid object blob reference (must name an"
                + " embedded blob): @file:kernel"), missing.err());
    }

    @Test
    void emitExeLinksWithLibmgpu() throws Exception {
        Path src = dir.resolve("main.mlir");
        Files.writeString(src, "module {\n  llvm.func @main() -> i32 {\n"
                + "    %c = llvm.mlir.constant(42 : i32) : i32\n    llvm.return %c : i32\n  }\n}\n");
        Path exe = dir.resolve("prog");
        Result r = run("--emit=exe", "--runtime-lib", TestPaths.root().resolve("runtime-c/build").toString(),
                src.toString(), "-o", exe.toString());
        assertEquals(0, r.code(), r.err());
        Process p = new ProcessBuilder(exe.toString()).start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(42, p.exitValue());
    }
}
