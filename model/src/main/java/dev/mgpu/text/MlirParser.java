package dev.mgpu.text;

import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.text.internal.Parser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Parses MLIR text into a module. Errors are thrown as {@link MgpuException} with file:line:col. */
public final class MlirParser {
    private MlirParser() {
    }

    /** The marker line between inputs of a split file. */
    public static final String SPLIT_MARKER = "// -----";

    /** Parses {@code bytes[offset, limit)}; locations are reported against {@code fileName}. */
    public static Operation parse(byte[] bytes, int offset, int limit, String fileName) {
        return new Parser(bytes, offset, limit, fileName).parseFile();
    }

    public static Operation parse(byte[] bytes, String fileName) {
        return parse(bytes, 0, bytes.length, fileName);
    }

    public static Operation parse(String text, String fileName) {
        return parse(text.getBytes(StandardCharsets.UTF_8), fileName);
    }

    public static Operation parse(Path file) throws IOException {
        return parse(Files.readAllBytes(file), file.toString());
    }

    /** A piece of a split input: bytes {@code [start, end)} of the whole. */
    public record Chunk(int start, int end) {
    }

    /**
     * Splits on lines that start with {@code // -----}; line numbers in each chunk stay those of the
     * whole input, since chunks are parsed in place.
     */
    public static List<Chunk> split(byte[] bytes) {
        List<Chunk> chunks = new ArrayList<>();
        byte[] marker = SPLIT_MARKER.getBytes(StandardCharsets.US_ASCII);
        int start = 0;
        int lineStart = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == '\n') {
                if (startsWith(bytes, lineStart, i, marker)) {
                    chunks.add(new Chunk(start, lineStart));
                    start = Math.min(bytes.length, i + 1);
                }
                lineStart = i + 1;
            }
        }
        chunks.add(new Chunk(start, bytes.length));
        return chunks;
    }

    private static boolean startsWith(byte[] b, int from, int to, byte[] marker) {
        if (to - from < marker.length) {
            return false;
        }
        for (int k = 0; k < marker.length; k++) {
            if (b[from + k] != marker[k]) {
                return false;
            }
        }
        return true;
    }
}
