package dev.mgpu.codegen.internal.device.nvptx;

import dev.mgpu.dialect.gpu.ObjectFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cubins and fat binaries that ptxas and fatbinary made in this JVM, by the hash of their PTX and of
 * everything else that decides them (the chip, ptxas's arguments, the object format, and the tools themselves
 * by path, size and time): a resident server, or a program that calls the library, asked again for kernels
 * that have not changed skips ptxas. The least recently used go first past 64 MiB.
 */
final class CubinCache {
    /** One object: its format (a cubin, or a fat binary) and its bytes. */
    record Entry(ObjectFormat format, byte[] bytes) {
    }

    private static final long MAX_BYTES = 64L << 20;
    private static final Map<String, Entry> ENTRIES = new LinkedHashMap<>(16, 0.75f, true);
    private static long bytes;
    private static long hits;

    private CubinCache() {
    }

    /** The key of {@code ptx} assembled by {@code tools} (ptxas, and fatbinary or null) with {@code arguments}. */
    static String key(byte[] ptx, List<Path> tools, List<String> arguments, ObjectFormat format) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(ptx);
            StringBuilder rest = new StringBuilder(format.name());
            for (Path t : tools) {
                rest.append('\0').append(t);
                if (t != null) {
                    try {
                        rest.append(':').append(Files.size(t)).append(':').append(Files.getLastModifiedTime(t).toMillis());
                    } catch (IOException e) {
                        rest.append(":gone");
                    }
                }
            }
            for (String a : arguments) {
                rest.append('\0').append(a);
            }
            sha.update(rest.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    static synchronized Entry get(String key) {
        Entry e = ENTRIES.get(key);
        if (e != null) {
            hits++;
        }
        return e;
    }

    static synchronized void put(String key, Entry e) {
        if (e.bytes().length > MAX_BYTES / 4 || ENTRIES.containsKey(key)) {
            return;
        }
        ENTRIES.put(key, e);
        bytes += e.bytes().length;
        var it = ENTRIES.values().iterator();
        while (bytes > MAX_BYTES && it.hasNext()) {
            bytes -= it.next().bytes().length;
            it.remove();
        }
    }

    /** How many objects were taken from the cache in this JVM. */
    static synchronized long hits() {
        return hits;
    }
}
