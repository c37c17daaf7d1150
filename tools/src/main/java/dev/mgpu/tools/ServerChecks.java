package dev.mgpu.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What tells a resident server to end: its build's files changed.
 */
final class ServerChecks {
    private ServerChecks() {
    }

    /**
     * The files of this build: the jar the server's classes come from and the launcher that started it
     * ({@code mgpu.launcher}), each with its inode, size and time; compared with those at the start, a
     * change says that the build was replaced and no client of the new build will use this server.
     */
    static List<Object> buildStamp() {
        List<Object> stamp = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        try {
            files.add(Path.of(CompileServer.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (java.net.URISyntaxException | RuntimeException e) {
            // Classes not from a file: nothing to watch.
        }
        String launcher = System.getProperty("mgpu.launcher");
        if (launcher != null && !launcher.isEmpty()) {
            files.add(Path.of(launcher));
        }
        for (Path f : files) {
            try {
                stamp.add(List.of(f.toString(), Files.getAttribute(f, "unix:ino"), Files.size(f),
                        Files.getLastModifiedTime(f)));
            } catch (IOException | RuntimeException e) {
                stamp.add(List.of(f.toString(), "gone"));
            }
        }
        return stamp;
    }
}
