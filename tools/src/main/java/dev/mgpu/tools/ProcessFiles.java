package dev.mgpu.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
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
     * Whether {@code path} names a file of the process that opens it, as the kernel resolves it: a
     * component at a time from the root, each link followed where it stands (so {@code ..} after a link
     * leaves the link's target, not the link's directory), and the path asked about at every step, before the
     * link there is followed: at the end it would be the server's own file, which says nothing.
     */
    static boolean named(String path) {
        try {
            Deque<String> left = new ArrayDeque<>();
            push(left, Path.of(path).toAbsolutePath().toString());
            Path at = Path.of("/");
            for (int links = 0; !left.isEmpty();) {
                String c = left.pop();
                if (c.isEmpty() || c.equals(".")) {
                    continue;
                }
                if (c.equals("..")) {
                    at = at.getParent() == null ? at : at.getParent();
                    continue;
                }
                at = at.resolve(c);
                if (ofTheProcess(at)) {
                    return true;
                }
                if (Files.isSymbolicLink(at)) {
                    if (++links > 40) {
                        // The run fails as a run of its own would: too many levels of links.
                        return true;
                    }
                    Path target = Files.readSymbolicLink(at);
                    at = target.isAbsolute() ? Path.of("/") : at.getParent();
                    push(left, target.toString());
                }
            }
            return false;
        } catch (IOException | java.nio.file.InvalidPathException | SecurityException e) {
            return false;
        }
    }

    /** Puts the components of {@code path} in front of those left, in order. */
    private static void push(Deque<String> left, String path) {
        String[] parts = path.split("/");
        for (int i = parts.length - 1; i >= 0; i--) {
            left.push(parts[i]);
        }
    }

    /** Whether the plain absolute path {@code at} is one of the files that name the opening process's own. */
    private static boolean ofTheProcess(Path at) {
        String s = at.toString();
        return s.startsWith("/dev/std") || s.equals("/dev/fd") || s.startsWith("/dev/fd/") || s.startsWith("/dev/tty")
                || s.equals("/proc") || s.startsWith("/proc/");
    }
}
