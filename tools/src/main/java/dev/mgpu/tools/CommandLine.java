package dev.mgpu.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command-line habits of clang and the MLIR tools: {@code @FILE} response files, the single-dash
 * spelling of long options ({@code -split-input-file}, as MLIR RUN lines write them), and a suggestion for
 * a mistyped option. Written here rather than taken from a library (picocli, commons-text): the CLI starts
 * a JVM per file in builds, and the arguments are parsed without one for start-up's sake (see
 * GpuTranslate); these few dozen lines load no class beyond the JDK's.
 */
final class CommandLine {
    /** How deep response files may name other response files. */
    static final int MAX_RESPONSE_DEPTH = 16;

    private CommandLine() {
    }

    /** Thrown for a response file that cannot be read or nests too deep. */
    static final class BadResponseFile extends Exception {
        private static final long serialVersionUID = 1L;

        BadResponseFile(String message) {
            super(message);
        }
    }

    /**
     * {@code args} with every {@code @FILE} replaced by the arguments FILE holds, as GCC and clang read
     * them: separated by white space, with single and double quotes and backslash escapes; a response file
     * may name others, relative to the working directory. A lone {@code @} and arguments after {@code --}
     * stay as they are.
     */
    static List<String> expand(List<String> args) throws BadResponseFile {
        List<String> out = new ArrayList<>();
        expand(args, out, 0);
        return out;
    }

    private static void expand(List<String> args, List<String> out, int depth) throws BadResponseFile {
        boolean options = true;
        for (String a : args) {
            if (options && a.equals("--")) {
                options = false;
            }
            if (!options || a.length() < 2 || a.charAt(0) != '@') {
                out.add(a);
                continue;
            }
            if (depth == MAX_RESPONSE_DEPTH) {
                throw new BadResponseFile("Invalid response file (must nest at most " + MAX_RESPONSE_DEPTH
                        + " deep): " + a);
            }
            String text;
            try {
                text = Files.readString(Path.of(a.substring(1)), StandardCharsets.UTF_8);
            } catch (NoSuchFileException e) {
                throw new BadResponseFile("Invalid response file (must be readable): " + a + ": no such file");
            } catch (IOException | java.io.UncheckedIOException | java.nio.file.InvalidPathException e) {
                throw new BadResponseFile("Invalid response file (must be readable): " + a + ": " + e.getMessage());
            }
            expand(split(text), out, depth + 1);
        }
    }

    /** The words of a response file. */
    static List<String> split(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < text.length()) {
                    w.append(text.charAt(++i));
                } else {
                    w.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                inWord = true;
            } else if (c == '\\' && i + 1 < text.length()) {
                w.append(text.charAt(++i));
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(w.toString());
                    w.setLength(0);
                    inWord = false;
                }
            } else {
                w.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(w.toString());
        }
        return words;
    }

    /**
     * The double-dash form of {@code arg} when it spells a long option with one dash ({@code -emit=obj},
     * {@code -split-input-file}), else {@code arg}.
     */
    static String doubleDash(String arg, List<String> longOptions) {
        if (arg.length() < 3 || arg.charAt(0) != '-' || arg.charAt(1) == '-') {
            return arg;
        }
        int eq = arg.indexOf('=');
        String name = "-" + (eq < 0 ? arg : arg.substring(0, eq));
        return longOptions.contains(name) ? "-" + arg : arg;
    }

    /** The known option closest to {@code name}, when it is close enough to be what was meant, else null. */
    static String suggestion(String name, List<String> known) {
        String bare = name.replaceFirst("^-+", "");
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(bare, k.replaceFirst("^-+", ""));
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        return best != null && bestDistance <= Math.max(1, Math.min(3, bare.length() / 3)) ? best : null;
    }

    /** Levenshtein distance: insertions, deletions and substitutions. */
    static int distance(String a, String b) {
        return dev.mgpu.ir.Spelling.distance(a, b);
    }
}
