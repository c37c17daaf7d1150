package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.tests.CliTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Options that build systems pass because clang takes them: the dependency file's name and its -MT, -MP
 * and -MMD, --target=, the -O levels clang has beyond -O0 to -O3, and names suggested for an unknown chip.
 */
class ClangHabitsTest {
    private static Path dir;
    private static Path good;
    private static Path host;

    @BeforeAll
    static void setUp() throws Exception {
        dir = Files.createTempDirectory("mgpu-clang-habits");
        good = dir.resolve("good.mlir");
        Files.writeString(good, CliTest.GOOD);
        host = dir.resolve("host.mlir");
        Files.writeString(host, CliTest.GOOD.replace("\"AB\"", "\"@file:k\""));
        Files.writeString(dir.resolve("k.bin"), "blob");
    }

    /** As clang -MD -o x.o writes x.d: the output's extension, if its name has one, becomes .d. */
    @Test
    void dependencyFileReplacesTheOutputsExtension() throws Exception {
        Path sub = Files.createDirectories(dir.resolve("a.b"));
        for (String[] c : new String[][] {{"x.o", "x.d"}, {"x.tar.o", "x.tar.d"}, {"app", "app.d"}}) {
            Path out = sub.resolve(c[0]);
            Result r = CliTest.run("-MD", "--emit=obj", good.toString(), "-o", out.toString());
            assertEquals(0, r.code(), r.err());
            assertTrue(Files.exists(sub.resolve(c[1])), c[0] + " -> " + c[1]);
            if (c[0].contains(".")) {
                assertFalse(Files.exists(sub.resolve(c[0] + ".d")), c[0] + ".d");
            }
            assertEquals(out + ": \\\n  " + good + "\n", Files.readString(sub.resolve(c[1])));
        }
    }

    @Test
    void mmdMtAndMp() throws Exception {
        String embed = "k=" + dir.resolve("k.bin");
        Path out = dir.resolve("host.o");
        assertEquals(0, CliTest.run("-MMD", "--embed", embed, host.toString(), "-o", out.toString()).code());
        String md = Files.readString(dir.resolve("host.d"));
        assertEquals(out + ": \\\n  " + host + " \\\n  " + dir.resolve("k.bin") + "\n", md);

        Result mt = CliTest.run("-MD", "-MT", "objs/host.o", "-MT", "all", "--embed", embed, host.toString(), "-o",
                out.toString());
        assertEquals(0, mt.code(), mt.err());
        assertEquals("objs/host.o all" + md.substring(md.indexOf(':')), Files.readString(dir.resolve("host.d")));

        // -MP: a rule for each --embed file, none for the input, as clang writes none for its main file.
        Result mp = CliTest.run("-MD", "-MP", "--embed", embed, host.toString(), "-o", out.toString());
        assertEquals(0, mp.code(), mp.err());
        assertEquals(md + dir.resolve("k.bin") + ":\n", Files.readString(dir.resolve("host.d")));

        // Make no longer stops when the embedded file is gone, and remakes the object.
        Files.writeString(dir.resolve("Makefile"), out + ":\n\ttouch " + out + "\n-include host.d\n");
        Files.delete(dir.resolve("k.bin"));
        Native.Result make = Native.run(dir, java.util.Map.of(), List.of("make", "-q", out.toString()));
        assertEquals(1, make.exit(), make.err());
        Files.writeString(dir.resolve("k.bin"), "blob");
    }

    @Test
    void targetIsTargetTriple() {
        Result a = CliTest.run("--target=aarch64-unknown-linux-gnu", "--emit=llvm", good.toString());
        assertEquals(0, a.code(), a.err());
        assertTrue(a.text().contains("target triple = \"aarch64-unknown-linux-gnu\""), a.text());
        Result b = CliTest.run("--target", "aarch64-unknown-linux-gnu", "--emit=llvm", good.toString());
        assertEquals(a.text(), b.text());
        assertEquals(a.text(), CliTest.run("--target-triple=aarch64-unknown-linux-gnu", "--emit=llvm",
                good.toString()).text());
    }

    /** clang-22 gives LLVM's code generator 1 for -O and -Og, and 2 for -Os and -Oz. */
    @Test
    void clangsOptimisationLevels() {
        String[] asm = new String[4];
        for (int level = 0; level <= 3; level++) {
            asm[level] = CliTest.run("-O" + level, "--emit=asm", good.toString()).text();
        }
        assertFalse(asm[0].equals(asm[1]), "-O0 and -O1 gave the same code");
        for (String[] c : new String[][] {{"-O", "1"}, {"-Og", "1"}, {"-Os", "2"}, {"-Oz", "2"}}) {
            Result r = CliTest.run(c[0], "--emit=asm", good.toString());
            assertEquals(0, r.code(), c[0] + ": " + r.err());
            assertEquals(asm[Integer.parseInt(c[1])], r.text(), c[0]);
        }
        Result o4 = CliTest.run("-O4", good.toString());
        assertEquals(2, o4.code());
        assertEquals("gpu-translate: error: Invalid optimisation level (must be -O0, -O1, -O2, -O3, -O, -Os, -Oz or"
                + " -Og): -O4", o4.err().lines().findFirst().orElse(""));
    }

    /** A misspelt chip is answered with the names nearest to it, not the first ones of the table. */
    @Test
    void unknownChipSuggestsNearestNames() throws Exception {
        Path nvFile = dir.resolve("chip-nv.mlir");
        Files.writeString(nvFile, kernelFor("#nvvm.target<chip = \"sm_9O\">"));
        Result nv = CliTest.run("--emit=llvm", nvFile.toString());
        assertEquals(1, nv.code(), nv.err());
        assertTrue(nv.err().contains("such as the nearest, sm_90, "), nv.err());
        Path amdFile = dir.resolve("chip-amd.mlir");
        Files.writeString(amdFile, kernelFor("#rocdl.target<chip = \"gfx90\">"));
        Result amd = CliTest.run("--emit=llvm", amdFile.toString());
        assertEquals(1, amd.code(), amd.err());
        // Every name one edit away, in the table's order.
        assertTrue(amd.err().contains("such as the nearest, gfx900, gfx902, gfx904, gfx906, gfx908, gfx909): gfx90"),
                amd.err());
    }

    /** -### shows what ptxas, fatbinary, lld and cc would be asked, runs none of them, and writes nothing. */
    @Test
    void hashHashHashShowsCommandsWithoutRunningThem() throws Exception {
        Path tools = Files.createDirectories(dir.resolve("cuda/bin"));
        Path ran = dir.resolve("ran");
        for (String t : List.of("ptxas", "fatbinary")) {
            Path p = tools.resolve(t);
            Files.writeString(p, "#!/bin/sh\necho " + t + " >> " + ran + "\nexit 1\n");
            p.toFile().setExecutable(true);
        }
        Path nv = dir.resolve("show-nv.mlir");
        Files.writeString(nv, kernelFor("#nvvm.target<chip = \"sm_90\">"));
        Path out = dir.resolve("show.o");
        Result r = CliTest.run("-###", "--ptxas=" + tools.resolve("ptxas"), "--emit=obj", nv.toString(), "-o",
                out.toString());
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.err().lines().toList();
        assertEquals(2, lines.size(), r.err());
        assertTrue(lines.get(0).startsWith(" \"" + tools.resolve("ptxas") + "\" \"-arch=sm_90\" \"-O2\" \""),
                lines.get(0));
        assertTrue(lines.get(1).startsWith(" \"" + tools.resolve("fatbinary") + "\" \"-64\" \"--create\" \""),
                lines.get(1));
        assertFalse(Files.exists(ran), "a tool ran");
        assertFalse(Files.exists(out), "-### wrote its output");

        Path amd = dir.resolve("show-amd.mlir");
        Files.writeString(amd, kernelFor("#rocdl.target<chip = \"gfx90a\">"));
        Result lld = CliTest.run("-###", "--emit=obj", amd.toString(), "-o", out.toString());
        assertEquals(0, lld.code(), lld.err());
        assertTrue(lld.err().matches("(?s) \"[^\"]*\" \"-flavor\" \"gnu\" \"-shared\" .*"), lld.err());
        assertFalse(Files.exists(out), "-### wrote its output");

        Path main = dir.resolve("show-main.mlir");
        Files.writeString(main, "module {\n  llvm.func @main() -> i32 {\n    %c = llvm.mlir.constant(0 : i32) : i32\n"
                + "    llvm.return %c : i32\n  }\n}\n");
        Path exe = dir.resolve("show-exe");
        Result cc = CliTest.run("-###", "--emit=exe", main.toString(), "-o", exe.toString());
        assertEquals(0, cc.code(), cc.err());
        assertTrue(cc.err().startsWith(" \"cc\" \""), cc.err());
        assertTrue(cc.err().strip().endsWith("\"-lmgpu\" \"-ldl\" \"-lpthread\" \"-lm\""), cc.err());
        assertFalse(Files.exists(exe), "-### linked");
    }

    private static String kernelFor(String target) {
        return "module attributes {gpu.container_module} {\n  gpu.module @m [" + target + "] {\n"
                + "    gpu.func @k() kernel {\n      gpu.return\n    }\n  }\n}\n";
    }
}
