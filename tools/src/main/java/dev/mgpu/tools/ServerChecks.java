package dev.mgpu.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * What a resident server must share with the clients it serves, and what tells it to end: the process's
 * identity (the files it may open and where), its socket directory's safety, and its build's files.
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
     * Why {@code dir} may not hold this user's sockets, or null where it may: it must be a directory of this
     * user's, mode 0700, and not a symbolic link. A directory the client opened and checked itself, passed as
     * a descriptor ({@code /proc/self/fd/N}), is checked where the descriptor leads: no name can be swapped
     * under it.
     */
    static String unsafeDirectory(Path dir) {
        boolean descriptor = dir.toString().matches("/proc/self/fd/\\d+");
        try {
            PosixFileAttributes a = descriptor ? Files.readAttributes(dir, PosixFileAttributes.class)
                    : Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            int owner = (Integer) (descriptor ? Files.getAttribute(dir, "unix:uid")
                    : Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS));
            Set<PosixFilePermission> only = Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                    PosixFilePermission.OWNER_EXECUTE);
            if (!a.isDirectory() || owner != ownUid() || !a.permissions().equals(only)) {
                return dir + " is not a directory of this user's alone (mode 0700, no link)";
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return dir + " is not a directory of this user's alone: " + e.getMessage();
        }
    }

    static int ownUid() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("Uid:")) {
                return Integer.parseInt(line.trim().split("\\s+")[2]);
            }
        }
        throw new IOException("no Uid in /proc/self/status");
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

    /** The charset in which the JVM's launcher reads a process's arguments (the locale's). */
    static java.nio.charset.Charset argumentCharset() {
        try {
            return java.nio.charset.Charset.forName(System.getProperty("sun.jnu.encoding"));
        } catch (IllegalArgumentException | NullPointerException e) {
            return java.nio.charset.Charset.defaultCharset();
        }
    }

    /** This process's file-creation mask, from /proc; -1 where it cannot be read. */
    static int umask() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Umask:")) {
                    return Integer.parseInt(line.substring(6).trim(), 8);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // Unknown: the client's identity holds the mask anyway.
        }
        return -1;
    }
}
