package dev.mgpu.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether two file arguments name the same file: by the file itself where both exist (links, {@code ..},
 * hard links), else by the real path of the directory that would hold them. Devices, FIFOs and the like are
 * never the same file here: writing one replaces nothing.
 */
final class OutputChecks {
    private OutputChecks() {
    }

    /** The index of the first of {@code files} that names the same file as {@code file}, or -1. */
    static int indexOfSame(List<String> files, String file) {
        for (int i = 0; i < files.size(); i++) {
            if (same(files.get(i), file)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean same(String a, String b) {
        try {
            Path pa = followed(Path.of(a));
            Path pb = followed(Path.of(b));
            if (Files.exists(pa) && Files.exists(pb)) {
                return Files.isRegularFile(pa) && Files.isSameFile(pa, pb);
            }
            return real(pa).equals(real(pb));
        } catch (IOException | InvalidPathException e) {
            return false;
        }
    }

    /** {@code p}, absolute, with its chain of symbolic links followed, to a file that may not exist. */
    private static Path followed(Path p) throws IOException {
        Path at = p.toAbsolutePath().normalize();
        for (int hops = 0; hops < 40 && Files.isSymbolicLink(at); hops++) {
            at = at.resolveSibling(Files.readSymbolicLink(at)).normalize();
        }
        return at;
    }

    /** {@code p} with the real path of its directory, where that exists. */
    private static Path real(Path p) throws IOException {
        Path parent = p.toAbsolutePath().normalize().getParent();
        if (parent == null || p.getFileName() == null) {
            return p.toAbsolutePath().normalize();
        }
        return (Files.isDirectory(parent) ? parent.toRealPath() : parent).resolve(p.getFileName());
    }
}
