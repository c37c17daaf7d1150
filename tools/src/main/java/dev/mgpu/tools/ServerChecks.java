package dev.mgpu.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a resident server must share with the clients it serves, and what tells it to end: the process's
 * identity (the files it may open and where), and its build's files.
 */
final class ServerChecks {
    private ServerChecks() {
    }

    /**
     * This process's identity as the client states it in its request: {@code uid=REAL,EFFECTIVE
     * gid=REAL,EFFECTIVE groups=G,... mnt=mnt:[N] root=DEV:INO}, the supplementary groups in increasing
     * order, the mount namespace as {@code /proc/self/ns/mnt} names it and the root directory's device and
     * inode. Two processes of one identity open the same files with the same rights, relative paths aside;
     * null where it cannot be read (no server is then used).
     */
    static String identity() {
        try {
            String uid = null;
            String gid = null;
            String groups = "";
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                String[] f = line.trim().split("\\s+");
                if (line.startsWith("Uid:")) {
                    uid = f[1] + "," + f[2];
                } else if (line.startsWith("Gid:")) {
                    gid = f[1] + "," + f[2];
                } else if (line.startsWith("Groups:")) {
                    groups = String.join(",", Arrays.stream(f).skip(1).mapToLong(Long::parseLong).sorted()
                            .mapToObj(Long::toString).toList());
                }
            }
            Path root = Path.of("/proc/self/root");
            return uid == null || gid == null ? null
                    : "uid=" + uid + " gid=" + gid + " groups=" + groups + " mnt="
                            + Files.readSymbolicLink(Path.of("/proc/self/ns/mnt")) + " root="
                            + Files.getAttribute(root, "unix:dev") + ":" + Files.getAttribute(root, "unix:ino");
        } catch (IOException | RuntimeException e) {
            return null;
        }
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
