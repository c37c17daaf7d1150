package dev.mgpu.tools;

import dev.mgpu.mlir.MlirParser;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The bytes of one input. Once a large file is parsed they may be let go of and the heap collected, so that
 * the heap shrinks and its pages go back to the system before translation adds its own: later phases need
 * the text only to quote a line in a diagnostic, for which the file is read again.
 */
final class InputText {
    /** A file of more than this many bytes is let go of once parsed. */
    static final int RELEASE_ABOVE = 16 << 20;

    private final Path file;
    private byte[] bytes;

    /**
     * The bytes of {@code file} (null for standard input), as read.
     *
     * @param file the file read, or null for standard input
     * @param bytes its bytes
     */
    InputText(Path file, byte[] bytes) {
        this.file = file;
        this.bytes = bytes;
    }

    /**
     * The bytes; once let go of, the file read again (empty if it can no longer be read).
     *
     * @return the input's bytes
     */
    byte[] bytes() {
        if (bytes == null) {
            try {
                bytes = MlirParser.readFile(file);
            } catch (IOException | RuntimeException e) {
                bytes = new byte[0];
            }
        }
        return bytes;
    }

    /**
     * Lets go of a file's bytes when there are more than {@link #RELEASE_ABOVE} of them, and collects the
     * heap; standard input, which cannot be read again, and a small file are kept.
     *
     * @return whether they were let go of
     */
    boolean release() {
        if (file == null || bytes == null || bytes.length <= RELEASE_ABOVE) {
            return false;
        }
        bytes = null;
        System.gc();
        return true;
    }
}
