package dev.mgpu.mlir.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Interns names read from the input bytes, so that a name used many times (an SSA value, a symbol) is one
 * {@link String}, created on first sight without a detour through a temporary.
 */
final class NameTable {
    private String[] table = new String[1024];
    private int count;

    String intern(byte[] buf, int start, int end) {
        int h = 1;
        for (int i = start; i < end; i++) {
            h = 31 * h + buf[i];
        }
        int mask = table.length - 1;
        int slot = (h ^ (h >>> 16)) & mask;
        while (true) {
            String s = table[slot];
            if (s == null) {
                s = new String(buf, start, end - start, StandardCharsets.UTF_8);
                table[slot] = s;
                if (++count * 2 > table.length) {
                    grow();
                }
                return s;
            }
            if (matches(s, buf, start, end)) {
                return s;
            }
            slot = (slot + 1) & mask;
        }
    }

    private static boolean matches(String s, byte[] buf, int start, int end) {
        int n = end - start;
        if (s.length() != n) {
            // Names with non-ASCII bytes may still match on their decoded form.
            return s.equals(new String(buf, start, n, StandardCharsets.UTF_8));
        }
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) != (buf[start + i] & 0xFF)) {
                return false;
            }
        }
        return true;
    }

    private void grow() {
        String[] old = table;
        table = new String[old.length * 2];
        int mask = table.length - 1;
        for (String s : old) {
            if (s == null) {
                continue;
            }
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            int h = 1;
            for (byte x : b) {
                h = 31 * h + x;
            }
            int slot = (h ^ (h >>> 16)) & mask;
            while (table[slot] != null) {
                slot = (slot + 1) & mask;
            }
            table[slot] = s;
        }
        Arrays.fill(old, null);
    }
}
