package dev.mgpu.mlir;

import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.mlir.internal.Parser;
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

    /**
     * Parses {@code bytes[offset, limit)}; locations are reported against {@code fileName}.
     *
     * @param bytes the input, UTF-8
     * @param offset where the text starts
     * @param limit where the text ends (exclusive)
     * @param fileName the name locations give
     * @return the top-level operation, a {@code builtin.module} (implicit when the text has none)
     * @throws dev.mgpu.ir.MgpuException if the text is not valid MLIR
     */
    public static Operation parse(byte[] bytes, int offset, int limit, String fileName) {
        // The parser recurses per level of nesting: on a deep stack, whatever the caller's thread. The work
        // holds the input only until the parser takes it: once this returns, the caller may let the bytes go
        // (a large input is), though the deep stack's thread may still be finishing the task that held them.
        java.util.concurrent.atomic.AtomicReference<byte[]> input = new java.util.concurrent.atomic.AtomicReference<>(
                bytes);
        return dev.mgpu.ir.DeepStack.call(() -> new Parser(input.getAndSet(null), offset, limit, fileName).parseFile());
    }

    /**
     * Parses all of {@code bytes}.
     *
     * @param bytes the input, UTF-8
     * @param fileName the name locations give
     * @return the top-level operation
     * @throws dev.mgpu.ir.MgpuException if the text is not valid MLIR
     */
    public static Operation parse(byte[] bytes, String fileName) {
        return parse(bytes, 0, bytes.length, fileName);
    }

    /**
     * Parses {@code text}.
     *
     * @param text the input
     * @param fileName the name locations give
     * @return the top-level operation
     * @throws dev.mgpu.ir.MgpuException if the text is not valid MLIR
     */
    public static Operation parse(String text, String fileName) {
        return parse(text.getBytes(StandardCharsets.UTF_8), fileName);
    }

    /**
     * Reads and parses {@code file}, with {@link #readFile}.
     *
     * @param file the input file; locations give its name as written
     * @return the top-level operation
     * @throws IOException if the file cannot be read or is larger than {@link #MAX_INPUT_BYTES}
     * @throws dev.mgpu.ir.MgpuException if the text is not valid MLIR
     */
    public static Operation parse(Path file) throws IOException {
        return parse(readFile(file), file.toString());
    }

    /**
     * Reads a whole file into one array. Large files are read in pieces of 1 MiB: a single read would stage
     * the whole file in a temporary native buffer, and a mapping would keep the file's pages resident
     * beside the copy until the mapping is collected.
     *
     * @param file the file to read
     * @return its bytes
     * @throws IOException if the file cannot be read, is larger than {@link #MAX_INPUT_BYTES} or changes while read
     */
    public static byte[] readFile(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            // A device, FIFO or /proc file has no size to trust (/dev/zero never ends): read it with a bound.
            try (java.io.InputStream in = Files.newInputStream(file)) {
                return readStream(in);
            }
        }
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file,
                java.nio.file.StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > MAX_INPUT_BYTES) {
                throw new IOException("more than " + LIMIT_TEXT + ": " + size + " bytes");
            }
            if (size < (1 << 20)) {
                return Files.readAllBytes(file);
            }
            byte[] bytes = new byte[(int) size];
            int off = 0;
            while (off < bytes.length) {
                int n = ch.read(java.nio.ByteBuffer.wrap(bytes, off, Math.min(1 << 20, bytes.length - off)));
                if (n < 0) {
                    throw new IOException("file changed while being read: " + off + " of " + size + " bytes");
                }
                off += n;
            }
            return bytes;
        }
    }

    /**
     * The most mgpu reads from one input or embedded file, 1 GiB: past it, input is refused with an error
     * instead of filling memory (an input of /dev/zero, a pipe that never closes).
     */
    public static final long MAX_INPUT_BYTES = 1L << 30;
    private static final String LIMIT_TEXT = "the 1 GiB mgpu reads";

    /**
     * Reads {@code in} to its end, refusing more than {@link #MAX_INPUT_BYTES}.
     *
     * @param in the stream; not closed
     * @return its bytes
     * @throws IOException if reading fails or the stream holds more than {@link #MAX_INPUT_BYTES}
     */
    public static byte[] readStream(java.io.InputStream in) throws IOException {
        List<byte[]> pieces = new ArrayList<>();
        long total = 0;
        while (true) {
            byte[] piece = in.readNBytes(1 << 20);
            if (piece.length == 0) {
                break;
            }
            total += piece.length;
            if (total > MAX_INPUT_BYTES) {
                throw new IOException("more than " + LIMIT_TEXT);
            }
            pieces.add(piece);
        }
        byte[] out = new byte[(int) total];
        int off = 0;
        for (byte[] p : pieces) {
            System.arraycopy(p, 0, out, off, p.length);
            off += p.length;
        }
        return out;
    }

    /**
     * A piece of a split input: bytes {@code [start, end)} of the whole.
     *
     * @param start the offset of the chunk's first byte
     * @param end the offset just after its last byte
     */
    public record Chunk(int start, int end) {
    }

    /**
     * Splits on lines that start with {@code // -----}; line numbers in each chunk stay those of the
     * whole input, since chunks are parsed in place.
     *
     * @param bytes the whole input
     * @return the chunks in order; one chunk when there is no marker
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
