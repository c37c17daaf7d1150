package dev.mgpu.tools;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Where output goes. A file is written to a temporary sibling and renamed into place by {@link #commit};
 * closing without committing deletes it, so a failure never leaves a partial output.
 */
final class Sink implements AutoCloseable {
    private final OutputStream out;
    private final Path tmp;
    private final Path target;
    private boolean committed;

    private Sink(OutputStream out, Path tmp, Path target) {
        this.out = out;
        this.tmp = tmp;
        this.target = target;
    }

    static Sink none() {
        return new Sink(OutputStream.nullOutputStream(), null, null);
    }

    static Sink open(String output, OutputStream stdout) throws IOException {
        if (output == null || output.equals("-")) {
            return new Sink(new BufferedOutputStream(stdout, 1 << 16), null, null);
        }
        Path target = Path.of(output).toAbsolutePath();
        Path tmp = createSibling(target);
        return new Sink(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16), tmp, target);
    }

    /**
     * A new, empty file next to {@code target}. Created plainly, so that its permissions (and so the
     * output's) are what the umask gives any new file; a temporary file's would be owner-only.
     */
    private static Path createSibling(Path target) throws IOException {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        while (true) {
            Path tmp = target.resolveSibling("." + target.getFileName() + "." + Long.toUnsignedString(
                    random.nextLong(), 36) + ".tmp");
            try {
                return Files.createFile(tmp);
            } catch (FileAlreadyExistsException e) {
                // Taken: draw another name.
            }
        }
    }

    /**
     * The temporary file behind this sink, for native code to write into directly; null when writing to
     * stdout. The Java stream must not be used as well.
     */
    Path file() {
        return tmp;
    }

    OutputStream stream() {
        return out;
    }

    void write(byte[] data) {
        try {
            out.write(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Flushes, and moves a file into place. */
    void commit() throws IOException {
        out.flush();
        if (tmp != null) {
            out.close();
            try {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        committed = true;
    }

    @Override
    public void close() throws IOException {
        if (tmp == null) {
            out.flush();
            return;
        }
        if (!committed) {
            out.close();
            Files.deleteIfExists(tmp);
        }
    }
}
