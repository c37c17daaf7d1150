package dev.mgpu.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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

    /** Writes {@code text} to {@code file} through a temporary file in its directory, renamed over it. */
    static void write(Path file, String text) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
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
