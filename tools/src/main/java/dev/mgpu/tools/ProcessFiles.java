package dev.mgpu.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The files that name something of the process that opens them ({@code /dev/stdout}, {@code /dev/fd/N},
 * {@code /proc/self/...}): a run that names one needs a process of its own, since in a resident server it
 * would name the server's.
 */
final class ProcessFiles {
    private ProcessFiles() {
    }

    /**
     * Whether a response file among {@code args}, or one that it names, is not a regular file (a FIFO, say,
     * which can be read once) or names a file of the process that reads it ({@code @/dev/stdin}).
     */
    static boolean inResponseFiles(List<String> args, int depth) {
        for (String a : args) {
            if (a.equals("--")) {
                return false;
            }
            if (a.length() < 2 || a.charAt(0) != '@') {
                continue;
            }
            String file = a.substring(1);
            if (depth > 16 || named(file)) {
                return true;
            }
            try {
                Path p = Path.of(file);
                if (Files.exists(p) && !Files.isRegularFile(p)) {
                    return true;
                }
                if (Files.isRegularFile(p) && inResponseFiles(
                        CommandLine.split(Files.readString(p, StandardCharsets.UTF_8)), depth + 1)) {
                    return true;
                }
            } catch (IOException | java.io.UncheckedIOException | java.nio.file.InvalidPathException e) {
                // The run reports it as a run of its own would.
            }
        }
        return false;
    }

    /**
     * Whether {@code path}, or a link on the way to its file, names a file of the process that opens it.
     * Followed a link at a time: the path at the end is the server's own file, which says nothing.
     */
    static boolean named(String path) {
        try {
            Path at = Path.of(path).toAbsolutePath().normalize();
            for (int hop = 0; hop < 40; hop++) {
                String s = at.toString();
                if (s.startsWith("/dev/std") || s.startsWith("/dev/fd/") || s.startsWith("/dev/tty")
                        || s.startsWith("/proc/")) {
                    return true;
                }
                if (!Files.isSymbolicLink(at)) {
                    // A link among the directories on the way is followed to where it leads.
                    Path parent = at.getParent();
                    return parent != null && Files.exists(parent) && !parent.toRealPath().equals(parent)
                            && named(parent.toRealPath().resolve(at.getFileName()).toString());
                }
                at = at.resolveSibling(Files.readSymbolicLink(at)).toAbsolutePath().normalize();
            }
            return true;
        } catch (IOException | java.nio.file.InvalidPathException | SecurityException e) {
            return false;
        }
    }
}
