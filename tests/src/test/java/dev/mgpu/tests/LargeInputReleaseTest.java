package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.mgpu.tools.GpuTranslate;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file of more than 16 MiB is let go of once parsed, and the heap collected: its translation is the one
 * its bytes give from standard input (which is kept), and a diagnostic of a later phase still quotes its
 * line, read from the file again.
 */
class LargeInputReleaseTest {
    @TempDir
    Path dir;

    /** A module embedding 6 MB written as 18 MB of escapes, launching {@code module::@kernel}. */
    private static byte[] source(String module) {
        Random rnd = new Random(21);
        String hex = "0123456789ABCDEF";
        StringBuilder blob = new StringBuilder(18_000_000);
        for (int i = 0; i < 6_000_000; i++) {
            int b = rnd.nextInt(256);
            blob.append('\\').append(hex.charAt(b >> 4)).append(hex.charAt(b & 15));
        }
        return String.join("\n",
                "module attributes {gpu.container_module} {",
                "  gpu.binary @big [#gpu.object<#nvvm.target, \"" + blob + "\">]",
                "  llvm.func @main() {",
                "    %c = llvm.mlir.constant(1 : index) : i64",
                "    gpu.launch_func " + module + "::@kernel blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64",
                "    llvm.return",
                "  }",
                "}", "").getBytes(StandardCharsets.US_ASCII);
    }

    private record Run(int code, String err) {
    }

    private static Run run(InputStream in, String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = GpuTranslate.run(args, in, new ByteArrayOutputStream(), new PrintStream(err, true,
                StandardCharsets.UTF_8));
        return new Run(code, err.toString(StandardCharsets.UTF_8));
    }

    /** The outputs and runs of one translation of the big module from its file and from standard input. */
    private record Both(Path file, Run fromFile, String fileOutput, String stdinOutput) {
    }

    /** Translates the big module to {@code emit} from a file and from standard input, with -v. */
    private Both translateBoth(String emit) throws Exception {
        byte[] text = source("@big");
        assertTrue(text.length > 16 << 20);
        Path file = dir.resolve("big.mlir");
        Files.write(file, text);
        Path fromFile = dir.resolve("file." + emit);
        Path fromStdin = dir.resolve("stdin." + emit);
        Run r = run(InputStream.nullInputStream(), "-v", "--emit=" + emit, "-o", fromFile.toString(), file.toString());
        assertEquals(0, r.code(), r.err());
        Run s = run(new ByteArrayInputStream(text), "-v", "--emit=" + emit, "-o", fromStdin.toString(), "-");
        assertEquals(0, s.code(), s.err());
        // Standard input cannot be read again, so it is kept.
        assertFalse(s.err().contains("release input"), s.err());
        return new Both(file, r, Files.readString(fromFile, StandardCharsets.ISO_8859_1),
                Files.readString(fromStdin, StandardCharsets.ISO_8859_1));
    }

    @Test
    void releasedFileTranslatesAsItsBytes() throws Exception {
        Both ir = translateBoth("llvm");
        assertTrue(ir.fromFile().err().contains(" release input\n"), ir.fromFile().err());
        // The same IR but for the module's name, which is the input's.
        String stdinIr = ir.stdinOutput();
        assertTrue(stdinIr.contains("source_filename = \"<stdin>\""), stdinIr.substring(0, 200));
        assertEquals(stdinIr, ir.fileOutput().replace(ir.file().toString(), "<stdin>"));
        assertTrue(stdinIr.contains("@big_bin_cst = internal constant [6000000 x i8] c\""), "the blob");
    }

    @Test
    void printedAsMlirTheFileIsKept() throws Exception {
        // Printing makes no memory after the parse, so letting the file go would only cost a collection.
        Both mlir = translateBoth("mlir");
        assertFalse(mlir.fromFile().err().contains("release input"), mlir.fromFile().err());
        assertTrue(mlir.fromFile().err().contains(" print\n"), mlir.fromFile().err());
        assertEquals(mlir.stdinOutput(), mlir.fileOutput());
        Path file = mlir.file();
        // To standard output it is let go of: a served run's output is gathered in memory before it is sent.
        Run toStdout = run(InputStream.nullInputStream(), "-v", "--emit=mlir", file.toString());
        assertEquals(0, toStdout.code(), toStdout.err());
        assertTrue(toStdout.err().contains(" release input\n"), toStdout.err());
        // Compiling its kernels makes LLVM's memory after the parse: then it is let go of.
        Run c = run(InputStream.nullInputStream(), "-v", "--emit=mlir", "--compile-kernels", "-o",
                dir.resolve("compiled.mlir").toString(), file.toString());
        assertEquals(0, c.code(), c.err());
        assertTrue(c.err().contains(" release input\n"), c.err());
    }

    @Test
    void laterDiagnosticQuotesTheFileAgain() throws Exception {
        Path file = dir.resolve("bad.mlir");
        Files.write(file, source("@missing"));
        Path out = dir.resolve("bad.ll");
        Run r = run(InputStream.nullInputStream(), "-v", "--emit=llvm", "-o", out.toString(), file.toString());
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().startsWith(file + ":5:5: error: Invalid kernel module (must name a gpu.binary or"
                + " gpu.module): @missing\n"
                + "    gpu.launch_func @missing::@kernel blocks in (%c, %c, %c) threads in (%c, %c, %c) : i64\n"
                + "    ^\n"), r.err());
        assertTrue(r.err().contains(" release input\n"), r.err());
        assertFalse(Files.exists(out));
    }
}
