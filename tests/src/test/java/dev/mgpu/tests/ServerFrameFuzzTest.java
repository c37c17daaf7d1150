package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Malformed and random requests to one resident server over its socket: truncated heads, wrong magic, huge or
 * negative lengths and counts, bytes that are not UTF-8, control requests with odd values, standard input sent
 * unasked or cut off, connections closed mid-frame or left open. The server must live through each, answer or
 * close each connection within seconds (one left open with half a request too), log no uncaught exception, and
 * still serve a well-formed run, what a run of its own gives, every few inputs.
 */
@Tag("server-fuzz")
class ServerFrameFuzzTest {
    /** What the server waits for a request's rest (MGPU_SERVER_REQUEST_SECONDS), and what the test allows. */
    private static final int REQUEST_SECONDS = 1;
    // Generous: the server shares two processors with the other fuzz test's JVM, which runs beside this one
    // and compiles kernels in two processes at a time; a server that hangs is found all the same.
    private static final long ANSWER_MILLIS = 20_000;
    private static final List<String> ARGS = List.of("--emit=mlir", "--emit=llvm", "-", "axpy.mlir",
            "--split-input-file", "--verify-diagnostics", "--server=status", "-v", "--targets=cpu", "", "\u00e4");

    private static Path work;
    private static Path servers;
    private static Map<String, String> served;
    private static String expected;
    private static long pid;
    private static Path socket;
    private static Path log;
    private static String identity;
    private static int umask;
    private static final List<Held> HELD = new ArrayList<>();
    private static int inputs;

    /** A connection left open after its bytes, and when. */
    private record Held(SocketChannel ch, long since, byte[] sent) {}

    @BeforeAll
    static void startServer() throws Exception {
        // Outside the build directory: a server's socket path must stay under the system's limit (107 bytes).
        work = TestPaths.outsideTemporaryDirectory("mgpu-server-fuzz").toRealPath();
        servers = work.resolve("servers");
        served = Map.of("MGPU_SERVER", "1", "MGPU_SERVER_DIR", servers.toString(), "MGPU_SERVER_IDLE", "300",
                "MGPU_SERVER_REQUEST_SECONDS", Integer.toString(REQUEST_SECONDS));
        Files.copy(TestPaths.root().resolve("examples/kernels/axpy.mlir"), work.resolve("axpy.mlir"));
        expected = Native.run(work, Map.of("MGPU_SERVER", "0"), List.of(gpuTranslate(), "--emit=mlir", "axpy.mlir"))
                .out();
        assertTrue(expected.contains("gpu.func @axpy"), expected);
        wellFormedRunIsServed();
        try (Stream<Path> s = Files.list(servers)) {
            List<Path> files = s.toList();
            socket = files.stream().filter(p -> p.toString().endsWith(".sock")).findFirst().orElseThrow();
            log = files.stream().filter(p -> p.toString().endsWith(".log")).findFirst().orElseThrow();
        }
        Matcher m = Pattern.compile("gpu-translate server (\\d+) on").matcher(Files.readString(log));
        assertTrue(m.find(), Files.readString(log));
        pid = Long.parseLong(m.group(1));
        identity = ServerTest.identity();
        umask = ServerTest.umask();
    }

    @AfterAll
    static void stopServer() throws Exception {
        for (Held h : HELD) {
            h.ch().close();
        }
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        Native.exec(work.getParent(), Map.of(), "rm", "-rf", work.toString());
    }

    private static String gpuTranslate() {
        return TestPaths.root().resolve("tools/gpu-translate").toString();
    }

    /** A run through the client gives what a run of its own gives, served by this server (no other started). */
    private static void wellFormedRunIsServed() throws Exception {
        Native.Result r = Native.run(work, served, List.of(gpuTranslate(), "--emit=mlir", "axpy.mlir"));
        assertEquals(0, r.exit(), r.err());
        assertEquals(expected, r.out());
        try (Stream<Path> s = Files.list(servers)) {
            assertEquals(1, s.filter(p -> p.toString().endsWith(".log")).count(), "another server was started");
        }
    }

    @FuzzTest(maxDuration = "40s")
    void frames(FuzzedDataProvider data) throws Exception {
        int close = data.consumeInt(0, 2);
        byte[] request = request(data);
        SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
        ch.connect(UnixDomainSocketAddress.of(socket));
        try {
            ByteBuffer b = ByteBuffer.wrap(request);
            while (b.hasRemaining()) {
                ch.write(b);
            }
        } catch (IOException e) {
            // The server closed the connection before taking it all: allowed.
        }
        switch (close) {
            case 0 -> {
                // Half-closed: the server reads to the end and must answer or close, within seconds.
                ch.shutdownOutput();
                assertTrue(answeredOrClosed(ch, ANSWER_MILLIS, true), "no end of the answer to " + hex(request));
                ch.close();
            }
            case 1 -> ch.close();
            default -> HELD.add(new Held(ch, System.nanoTime(), request));
        }
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                "the server died after " + hex(request) + "\n" + Files.readString(log));
        if (++inputs % 20 == 0) {
            checkHeld();
            wellFormedRunIsServed();
            String text = Files.readString(log);
            assertFalse(text.contains("Exception in thread"), text);
        }
    }

    /** A request that half the time says who and where the client is truly, the rest from the fuzzer's bytes. */
    private static byte[] request(FuzzedDataProvider data) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(1 << 16);
        switch (data.consumeInt(0, 3)) {
            case 0 -> b.put(data.consumeBytes(4096));
            case 1 -> {
                b.put("MGTC".getBytes(StandardCharsets.US_ASCII));
                int what = data.consumeInt();
                // 2 stops the server, as it should.
                b.putInt(what == 2 ? 3 : what);
            }
            default -> {
                b.put((data.consumeBoolean() ? "MGT3" : data.consumeString(4)).getBytes(StandardCharsets.UTF_8));
                b.putInt(data.consumeInt(0, 3));
                boolean truly = data.consumeBoolean();
                b.putLong(truly ? (Long) Files.getAttribute(work, "unix:dev") : data.consumeLong());
                b.putLong(truly ? (Long) Files.getAttribute(work, "unix:ino") : data.consumeLong());
                b.putInt(truly ? umask : data.consumeInt());
                string(b, data, truly ? work.toString() : null);
                string(b, data, truly ? identity : null);
                int argc = data.consumeBoolean() ? data.consumeInt(0, 4) : data.consumeInt();
                b.putInt(argc);
                for (int i = 0; i < Math.min(argc, 8) && b.remaining() > 2048; i++) {
                    string(b, data, data.consumeBoolean() ? data.pickValue(ARGS) : null);
                }
                // Standard input, asked for or not: chunks with lengths true or not.
                while (data.consumeBoolean() && b.remaining() > 2048) {
                    byte[] chunk = data.consumeBytes(256);
                    b.putInt(data.consumeBoolean() ? chunk.length : data.consumeInt());
                    b.put(chunk);
                }
            }
        }
        b.flip();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    /** {@code s} with its true length, or the fuzzer's bytes (not always UTF-8) with a length true or not. */
    private static void string(ByteBuffer b, FuzzedDataProvider data, String s) {
        byte[] bytes = s != null ? s.getBytes(StandardCharsets.UTF_8) : data.consumeBytes(64);
        b.putInt(s != null || data.consumeBoolean() ? bytes.length : data.consumeInt());
        b.put(bytes);
    }

    /**
     * Whether the server sent something or closed the connection within {@code millis}; with {@code toEnd},
     * whether it closed it (its answer read to the end).
     */
    private static boolean answeredOrClosed(SocketChannel ch, long millis, boolean toEnd) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        ch.configureBlocking(false);
        try (Selector sel = Selector.open()) {
            ch.register(sel, SelectionKey.OP_READ);
            ByteBuffer buf = ByteBuffer.allocate(1 << 16);
            while (true) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return false;
                }
                sel.select(left);
                sel.selectedKeys().clear();
                buf.clear();
                int n;
                try {
                    n = ch.read(buf);
                } catch (IOException e) {
                    return true;
                }
                if (n < 0 || n > 0 && !toEnd) {
                    return true;
                }
            }
        }
    }

    /** Each connection left open got a word or was closed within seconds of its request. */
    private static void checkHeld() throws IOException {
        for (Held h : HELD) {
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - h.since());
            assertTrue(answeredOrClosed(h.ch(), Math.max(0, ANSWER_MILLIS - waited) + 100, false),
                    "a connection left open had no word within " + ANSWER_MILLIS + " ms: " + hex(h.sent()));
            h.ch().close();
        }
        HELD.clear();
    }

    private static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < Math.min(bytes.length, 512); i++) {
            s.append(String.format("%02x", bytes[i]));
        }
        return s.append(bytes.length > 512 ? "... (" + bytes.length + " bytes)" : "").toString();
    }

    /** A connection that sends half a request and waits is closed by the server within seconds. */
    @Test
    void halfARequestLeftOpenIsClosed() throws Exception {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            ch.write(ByteBuffer.wrap("MGT3\0\0".getBytes(StandardCharsets.US_ASCII)));
            long start = System.nanoTime();
            assertTrue(answeredOrClosed(ch, ANSWER_MILLIS, true));
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(REQUEST_SECONDS * 1000 - 100));
        }
        wellFormedRunIsServed();
    }
}
