package dev.mgpu.tests;

import dev.mgpu.dialect.gpu.BinaryOp;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.mgpu.codegen.Mgpu;
import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * String literals decode to their exact bytes whatever mix of escapes they hold: long runs of {@code \XX}
 * (decoded by a loop of their own) broken by every other escape and by raw characters, across the
 * decoder's buffer growth, and a bad escape deep inside a run is reported at its column.
 */
class StringLiteralTest {
    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    /** MLIR text for {@code data}, choosing an encoding per byte from {@code rnd}. */
    private static String encode(byte[] data, Random rnd) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte b : data) {
            int c = b & 0xFF;
            int pick = rnd.nextInt(10);
            if (c == '"' || c == '\\') {
                out.write('\\');
                out.write(pick < 5 ? c : HEX[c >> 4]);
                if (pick >= 5) {
                    out.write(HEX[c & 15]);
                }
            } else if (c == '\n' && pick < 5) {
                out.write('\\');
                out.write('n');
            } else if (c == '\t' && pick < 5) {
                out.write('\\');
                out.write('t');
            } else if (c >= 0x20 && c < 0x7F && pick < 3) {
                out.write(c);
            } else {
                out.write('\\');
                out.write(pick < 8 ? HEX[c >> 4] : Character.toLowerCase(HEX[c >> 4]));
                out.write(pick < 8 ? HEX[c & 15] : Character.toLowerCase(HEX[c & 15]));
            }
        }
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    private static byte[] blobOf(String literal) {
        String text = "module attributes {gpu.container_module} {\n  gpu.binary @b [#gpu.object<#nvvm.target, \""
                + literal + "\">]\n}\n";
        Operation module = Mgpu.parse(text.getBytes(StandardCharsets.ISO_8859_1), "strings.mlir");
        return new BinaryOp(module.region(0).entry().operations().get(0)).object(0).object().bytes();
    }

    @Test
    void everyMixDecodesExactly() {
        Random rnd = new Random(42);
        for (int size : new int[] {0, 1, 2, 3, 255, 256, 65_535, 65_536, 65_537, 300_000}) {
            byte[] data = new byte[size];
            rnd.nextBytes(data);
            // Runs of the bytes that need escapes most, and of plain text, so that both loops take turns.
            for (int i = 0; i + 64 < size; i += 1000) {
                for (int j = 0; j < 64; j++) {
                    data[i + j] = (byte) (i % 3000 == 0 ? '"' : i % 3000 == 1000 ? '\\' : 'a' + j % 26);
                }
            }
            assertArrayEquals(data, blobOf(encode(data, rnd)), "size " + size);
        }
    }

    @Test
    void largeLiteralsDecodeExactlyAndApart() {
        // Past 64 KiB the rest of a literal is measured and decoded into an array of its exact size, which
        // past 1 MiB is handed over without a copy: two such literals in one module must not share it.
        Random rnd = new Random(7);
        byte[] first = new byte[(1 << 20) + 7];
        byte[] second = new byte[2_500_000];
        rnd.nextBytes(first);
        rnd.nextBytes(second);
        second[second.length - 1] = '"';
        String text = "module attributes {gpu.container_module} {\n  gpu.binary @a [#gpu.object<#nvvm.target, \""
                + encode(first, rnd) + "\">]\n  gpu.binary @b [#gpu.object<#nvvm.target, \"" + encode(second, rnd)
                + "\">]\n}\n";
        Operation module = Mgpu.parse(text.getBytes(StandardCharsets.ISO_8859_1), "large.mlir");
        byte[] a = new BinaryOp(module.region(0).entry().operations().get(0)).object(0).object().bytes();
        byte[] b = new BinaryOp(module.region(0).entry().operations().get(1)).object(0).object().bytes();
        assertArrayEquals(first, a);
        assertArrayEquals(second, b);
        // A bad escape, and a line break, after the measured point are still reported where they are.
        String run = "\\41".repeat(1 << 20);
        MgpuException e = assertThrows(MgpuException.class, () -> blobOf(run + "\\q" + run));
        assertEquals("strings.mlir:2:" + (44 + 1 + run.length()) + ": error: Invalid escape (must be \\\\, \\\", \\n,"
                + " \\t or \\XX): \\q", e.diagnostics().get(0).toString());
        MgpuException broken = assertThrows(MgpuException.class, () -> blobOf(run + "\n\">]"));
        assertEquals("strings.mlir:2:44: error: Invalid string (must end with '\"' on its line): end of line",
                broken.diagnostics().get(0).toString());
    }

    @Test
    void badEscapeDeepInARunIsLocated() {
        String run = "\\00".repeat(100_000);
        MgpuException e = assertThrows(MgpuException.class, () -> blobOf(run + "\\zz"));
        // Line 2: `  gpu.binary @b [#gpu.object<#nvvm.target, "` is 44 characters before the literal's first byte.
        assertEquals("strings.mlir:2:" + (44 + 1 + run.length()) + ": error: Invalid escape (must be \\\\, \\\", \\n,"
                + " \\t or \\XX): \\z", e.diagnostics().get(0).toString());
        // Input that ends inside the run: the string is unterminated (located at its quote); input that ends
        // inside an escape: the escape is incomplete (located at it).
        String head = "module {\n  gpu.binary @b [#gpu.object<#nvvm.target, \"" + run;
        MgpuException end = assertThrows(MgpuException.class,
                () -> Mgpu.parse(head.getBytes(StandardCharsets.US_ASCII), "cut.mlir"));
        assertEquals("cut.mlir:2:44: error: Invalid string (must end with '\"'): end of input",
                end.diagnostics().get(0).toString());
        MgpuException half = assertThrows(MgpuException.class,
                () -> Mgpu.parse((head + "\\0").getBytes(StandardCharsets.US_ASCII), "cut.mlir"));
        assertEquals("cut.mlir:2:" + (44 + 1 + run.length()) + ": error: Invalid escape (must be \\\\, \\\", \\n,"
                + " \\t or \\XX): \\0", half.diagnostics().get(0).toString());
    }

    /** A string literal's text for {@code data} as MLIR prints one, written out byte by byte. */
    private static String printedForm(byte[] data) {
        StringBuilder sb = new StringBuilder("\"");
        for (byte b : data) {
            int c = b & 0xFF;
            if (c == '\\') {
                sb.append("\\\\");
            } else if (c >= 0x20 && c < 0x7F && c != '"') {
                sb.append((char) c);
            } else {
                sb.append('\\').append((char) HEX[c >> 4]).append((char) HEX[c & 15]);
            }
        }
        return sb.append('"').toString();
    }

    @Test
    void everyLengthPrintsEachByteAsMlirDoes() {
        // Short strings are written a byte at a time, long ones (1 KiB on) a form per four-byte store, in
        // pieces of 16 KiB: the lengths on both sides of each change, every byte value at every place.
        Random rnd = new Random(11);
        for (int size : new int[] {0, 1, 255, 1023, 1024, 1025, 16_383, 16_384, 16_385, 3 * 16_384 + 5}) {
            byte[] data = new byte[size];
            for (int i = 0; i < size; i++) {
                data[i] = (byte) (i < 512 ? i : rnd.nextInt(256));
            }
            assertEquals(printedForm(data), AsmOutput.render(new Attribute.StringAttr(data)), "size " + size);
        }
        // The room a long string needs: three bytes for each and one more, which the last store reaches.
        byte[] ones = new byte[2048];
        assertEquals(3 * 2048, AsmOutput.escape(ones, 0, 2048, new byte[3 * 2048 + 1], 0));
        assertThrows(IndexOutOfBoundsException.class, () -> AsmOutput.escape(ones, 0, 2048, new byte[3 * 2048], 0));
    }
}
