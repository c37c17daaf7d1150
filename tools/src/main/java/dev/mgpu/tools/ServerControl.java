package dev.mgpu.tools;

import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code --server=status} and {@code --server=stop}: ask every resident server of this user (each socket of
 * the directory that the client uses: {@code MGPU_SERVER_DIR}, else {@code $XDG_RUNTIME_DIR/mgpu-server},
 * else {@code /tmp/mgpu-server-UID}) what it is doing, or to end once its runs in progress have. A socket that
 * no server answers is a dead server's; a stop removes it.
 */
final class ServerControl {
    private ServerControl() {
    }

    /** The directory of this user's server sockets, as the client names it. */
    static Path directory() throws IOException {
        String given = System.getenv("MGPU_SERVER_DIR");
        if (given != null && !given.isEmpty()) {
            return Path.of(given);
        }
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        if (runtime != null && !runtime.isEmpty()) {
            return Path.of(runtime, "mgpu-server");
        }
        return Path.of("/tmp/mgpu-server-" + ServerChecks.ownUid());
    }

    static int run(String what, PrintStream out, PrintStream err) {
        int request = what.equals("stop") ? 2 : 1;
        Path dir;
        try {
            dir = directory();
            if (!Files.isDirectory(dir)) {
                out.println("no servers (" + dir + " does not exist)");
                return GpuTranslate.EXIT_OK;
            }
            String unsafe = ServerChecks.unsafeDirectory(dir);
            if (unsafe != null) {
                err.println("gpu-translate: error: Invalid server directory (must be this user's alone): " + unsafe);
                return GpuTranslate.EXIT_USAGE;
            }
            // Held open while the servers are asked: a socket too deep for a socket's address is reached through
            // this stream's descriptor of the directory.
            try (DirectoryStream<Path> held = Files.newDirectoryStream(dir)) {
                List<Path> sockets = new ArrayList<>();
                for (Path p : held) {
                    if (p.getFileName().toString().endsWith(".sock")) {
                        sockets.add(p);
                    }
                }
                sockets.sort(null);
                if (sockets.isEmpty()) {
                    out.println("no servers in " + dir);
                }
                Path viaDescriptor = null;
                for (Path socket : sockets) {
                    Path address = socket;
                    if (socket.toString().getBytes(StandardCharsets.UTF_8).length > MAX_SOCKET_PATH) {
                        viaDescriptor = viaDescriptor != null ? viaDescriptor : descriptorOf(dir);
                        address = viaDescriptor.resolve(socket.getFileName());
                    }
                    tell(socket, address, request, out);
                }
            }
        } catch (IOException e) {
            err.println("gpu-translate: error: Invalid server directory (must be readable): " + e.getMessage());
            return GpuTranslate.EXIT_USAGE;
        }
        return GpuTranslate.EXIT_OK;
    }

    /** The longest path a socket's address holds on Linux (108 bytes with the terminating NUL). */
    private static final int MAX_SOCKET_PATH = 107;

    /**
     * {@code dir} as {@code /proc/self/fd/N}, through a descriptor of it that this process holds open, as the
     * client and the server name a deep directory; {@code dir} itself where there is none. Without it a server
     * directory deep in a build tree looked as if no server answered, and a stop removed a live server's socket.
     */
    private static Path descriptorOf(Path dir) throws IOException {
        Path real = dir.toRealPath();
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                try {
                    if (Files.readSymbolicLink(fd).equals(real)) {
                        return fd;
                    }
                } catch (IOException | UnsupportedOperationException e) {
                    // Not a link, or closed meanwhile.
                }
            }
        } catch (IOException e) {
            // No /proc: the path as it is.
        }
        return dir;
    }

    /** Asks the server of {@code socket}, reached at {@code address}, and prints its answer or its absence. */
    private static void tell(Path socket, Path address, int request, PrintStream out) {
        String name = socket.getFileName().toString().replaceFirst("\\.sock$", "");
        try {
            out.println(name + ": " + ask(address, request));
        } catch (IOException e) {
            if (request == 2) {
                try {
                    Files.deleteIfExists(socket);
                } catch (IOException gone) {
                    // Left for the next client, which starts a server afresh.
                }
            }
            out.println(name + ": no server answers" + (request == 2 ? " (socket removed)" : ""));
        }
    }

    /** Sends one control request and reads the server's one answer. */
    private static String ask(Path socket, int request) throws IOException {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            ByteBuffer b = ByteBuffer.allocate(8).putInt(CompileServer.CONTROL).putInt(request);
            b.flip();
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ByteBuffer length = readFully(ch, 4);
            int n = length.getInt();
            if (n < 0 || n > 1 << 16) {
                throw new IOException("bad answer");
            }
            return StandardCharsets.UTF_8.decode(readFully(ch, n)).toString();
        }
    }

    private static ByteBuffer readFully(SocketChannel ch, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n);
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new IOException("the server closed the connection");
            }
        }
        return b.flip();
    }
}
