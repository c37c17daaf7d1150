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

    /**
     * The dependency line of the {@code -MT} targets, written as given (or of {@code output}, escaped, when
     * there are none) on {@code prerequisites}; with {@code phony} ({@code -MP}), a rule with no
     * prerequisites for each prerequisite after the first (the input), so that Make does not stop when one
     * is removed.
     */
    static String text(List<String> targets, String output, List<String> prerequisites, boolean phony) {
        StringBuilder b = new StringBuilder(targets.isEmpty() ? escape(output) : String.join(" ", targets)).append(':');
        for (String p : prerequisites) {
            b.append(" \\\n  ").append(escape(p));
        }
        b.append('\n');
        for (int i = 1; phony && i < prerequisites.size(); i++) {
            b.append(escape(prerequisites.get(i))).append(":\n");
        }
        return b.toString();
    }

    /**
     * Where {@code -MD} writes for the output {@code output}, as clang does: the output with its extension
     * replaced by {@code .d} ({@code x.o} gives {@code x.d}, {@code app} gives {@code app.d}).
     */
    static String defaultPath(String output) {
        int slash = output.lastIndexOf('/');
        int dot = output.lastIndexOf('.');
        String name = output.substring(slash + 1);
        boolean extension = dot > slash && !name.equals(".") && !name.equals("..");
        return (extension ? output.substring(0, dot) : output) + ".d";
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
