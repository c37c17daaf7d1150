package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.mgpu.tools.GpuTranslate;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No output of a run names one of its inputs or another of its outputs: such a run is a usage error (exit 2)
 * that writes nothing, as gcc refuses an output that is its input. Each case replaced a file before.
 */
class OutputsNeverReplaceInputsTest {
    @TempDir
    Path dir;
    private Path in;

    @BeforeEach
    void input() throws Exception {
        in = dir.resolve("in.mlir");
        Files.writeString(in, "// the user's comment, which a print would lose\n" + CliTest.GOOD);
    }

    private CliTest.Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = GpuTranslate.run(args, new ByteArrayInputStream(new byte[0]), out,
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        return new CliTest.Result(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }

    private void refused(String message, String... args) throws Exception {
        String before = Files.readString(in);
        List<String> files = listing();
        CliTest.Result r = run(args);
        assertEquals(2, r.code(), r.err());
        assertEquals("gpu-translate: error: " + message + "\n", r.err());
        assertEquals(before, Files.readString(in));
        assertEquals(files, listing(), "nothing written");
    }

    private List<String> listing() throws Exception {
        try (var s = Files.walk(dir)) {
            return s.map(p -> dir.relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void theOutputIsNotTheInput() throws Exception {
        refused("Invalid output (must not be an input, which it would replace): -o " + in + " is the input " + in,
                "--emit=obj", in.toString(), "-o", in.toString());
    }

    @Test
    void theOutputIsNotTheInputThroughALinkOrDots() throws Exception {
        Path link = dir.resolve("link.mlir");
        Files.createSymbolicLink(link, in);
        refused("Invalid output (must not be an input, which it would replace): -o " + link + " is the input " + in,
                "--emit=mlir", in.toString(), "-o", link.toString());
        Files.createDirectories(dir.resolve("sub"));
        String dotted = dir.resolve("sub/../in.mlir").toString();
        refused("Invalid output (must not be an input, which it would replace): -o " + dotted + " is the input " + in,
                "--emit=llvm", in.toString(), "-o", dotted);
    }

    @Test
    void theOutputIsNotAnEmbeddedFile() throws Exception {
        Path blob = dir.resolve("blob.bin");
        Files.write(blob, new byte[] {1, 2, 3});
        String before = Files.readString(blob);
        CliTest.Result r = run("--emit=obj", "--embed", "k=" + blob, in.toString(), "-o", blob.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals("gpu-translate: error: Invalid output (must not be an input, which it would replace): -o " + blob
                + " is the input " + blob + "\n", r.err());
        assertEquals(before, Files.readString(blob));
    }

    @Test
    void theDependencyFileIsNotTheInputNorTheOutput() throws Exception {
        Path obj = dir.resolve("out.o");
        refused("Invalid output (must not be an input, which it would replace): -MF " + in + " is the input " + in,
                "--emit=obj", "-MD", "-MF", in.toString(), in.toString(), "-o", obj.toString());
        refused("Invalid -MF (must not be the output, which it would replace): " + obj,
                "--emit=obj", "-MD", "-MF", obj.toString(), in.toString(), "-o", obj.toString());
    }

    @Test
    void aLinkToAMissingFileNamesThatFile() throws Exception {
        Path dep = dir.resolve("dep.d");
        Path obj = dir.resolve("out.o");
        Files.createSymbolicLink(obj, dep);
        refused("Invalid -MF (must not be the output, which it would replace): " + dep,
                "--emit=obj", "-MD", "-MF", dep.toString(), in.toString(), "-o", obj.toString());
    }

    @Test
    void anOutputDirectoryDoesNotWriteOverALaterInput() throws Exception {
        Path out = dir.resolve("out");
        Files.createDirectories(out);
        Path later = out.resolve("in.ll");
        Files.writeString(later, "kept");
        refused("Invalid output (must not be an input, which it would replace): -o " + later + " is the input "
                + later, "--output-dir=" + out, in.toString(), later.toString());
        assertEquals("kept", Files.readString(later));
    }

    @Test
    void anOutputDirectoryDoesNotWriteOverItsInputs() throws Exception {
        refused("Invalid output (must not be an input, which it would replace): -o " + in + " is the input " + in,
                "--output-dir=" + dir, "--emit=mlir", in.toString());
    }

    @Test
    void inputsOfOneNameInAnOutputDirectoryAreRefused() throws Exception {
        Files.createDirectories(dir.resolve("a"));
        Files.createDirectories(dir.resolve("b"));
        Files.writeString(dir.resolve("a/x.mlir"), CliTest.GOOD);
        Files.writeString(dir.resolve("b/x.mlir"), CliTest.GOOD);
        Path outDir = dir.resolve("out");
        refused("Invalid INPUT with --output-dir (must not share its name with another INPUT, whose output it would"
                + " replace): " + dir.resolve("a/x.mlir") + " and " + dir.resolve("b/x.mlir") + " both write "
                + outDir.resolve("x.ll"), "--output-dir=" + outDir, dir.resolve("a/x.mlir").toString(),
                dir.resolve("b/x.mlir").toString());
        assertFalse(Files.exists(outDir.resolve("x.ll")));
    }

    @Test
    void aRootIsNoInputOfAnOutputDirectory() throws Exception {
        Path outDir = dir.resolve("out");
        CliTest.Result r = run("--output-dir=" + outDir, "/");
        assertEquals(2, r.code(), r.err());
        assertEquals("gpu-translate: error: Invalid INPUT with --output-dir (must be a file, not stdin or a root): /\n",
                r.err());
    }

    @Test
    void aLineBreakInANameNeverReachesADependencyFile() throws Exception {
        Path odd = dir.resolve("evil\nall: ; touch pwned\n.o");
        refused("Invalid file name for -MD/-MF (must not hold a line break, which a dependency file cannot hold): "
                + odd.toString().replace("\n", "\\n"), "--emit=obj", "-MD", in.toString(), "-o", odd.toString());
    }
}
