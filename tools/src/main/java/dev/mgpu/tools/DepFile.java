package dev.mgpu.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A Make-style dependency file, as {@code clang -MD -MF} writes one: {@code TARGET: INPUT FILE...}, naming
 * the input and every {@code --embed} file, so that Make, Ninja and CMake rebuild the output when any of
 * them changes. Spaces, {@code #} and {@code $} in names are escaped as Make reads them.
 */
final class DepFile {
    private DepFile() {
    }

    /** The dependency line of {@code target} on {@code prerequisites}. */
    static String text(String target, List<String> prerequisites) {
        StringBuilder b = new StringBuilder(escape(target)).append(':');
        for (String p : prerequisites) {
            b.append(" \\\n  ").append(escape(p));
        }
        return b.append('\n').toString();
    }

    /**
     * Writes {@code text} to {@code file} as every output is written ({@link Sink}): through a temporary
     * file renamed over it, its mode kept, removed on SIGINT and SIGTERM; {@code -} is {@code stdout}.
     */
    static void write(String file, String text, java.io.OutputStream stdout) throws IOException {
        try (Sink s = Sink.open(file, stdout)) {
            s.write(text.getBytes(StandardCharsets.UTF_8));
            s.commit();
        }
    }

    static String escape(String name) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            switch (c) {
                case ' ' -> {
                    // Backslashes before a space are doubled, then the space is escaped, as GCC does.
                    for (int j = i - 1; j >= 0 && name.charAt(j) == '\\'; j--) {
                        b.append('\\');
                    }
                    b.append("\\ ");
                }
                case '#' -> b.append("\\#");
                case '$' -> b.append("$$");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
