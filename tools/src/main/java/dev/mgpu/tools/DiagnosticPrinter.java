package dev.mgpu.tools;

import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.Location;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Prints diagnostics and the tool's own errors on standard error, in clang's colours or plain. */
final class DiagnosticPrinter {
    // The colours clang uses for diagnostics on a terminal.
    private static final String BOLD = "\u001B[1m";
    private static final String RED = "\u001B[1;31m";
    private static final String MAGENTA = "\u001B[1;35m";
    private static final String CYAN = "\u001B[1;36m";
    private static final String GREEN = "\u001B[1;32m";
    private static final String RESET = "\u001B[0m";

    private final PrintStream err;
    private final boolean colored;

    /** Prints on {@code err}, in colour if {@code colored}. */
    DiagnosticPrinter(PrintStream err, boolean colored) {
        this.err = err;
        this.colored = colored;
    }

    /** Prints {@code file:line:col: error: message}, then the source line and a caret under the column. */
    void report(Diagnostic d, byte[] input) {
        err.println(colored ? BOLD + d.location() + ": " + (d.severity() == Diagnostic.Severity.ERROR ? RED
                : d.severity() == Diagnostic.Severity.WARNING ? MAGENTA : CYAN) + d.severity().label() + ": "
                + RESET + BOLD + d.message() + RESET : d.toString());
        if (d.location() instanceof Location.FileLineCol f && f.line() > 0) {
            String line = sourceLine(input, f.line());
            if (line != null) {
                // Control characters are shown escaped: raw, they would drive the terminal, not show the input.
                StringBuilder shown = new StringBuilder();
                StringBuilder caret = new StringBuilder();
                for (int i = 0; i < line.length(); i++) {
                    char c = line.charAt(i);
                    String s = c == '\t' || !(Character.isISOControl(c) || Character.getType(c) == Character.FORMAT)
                            ? String.valueOf(c)
                            : c < 0x100 ? String.format("\\x%02X", (int) c) : String.format("\\u%04X", (int) c);
                    shown.append(s);
                    if (i + 1 < f.column()) {
                        caret.append(c == '\t' ? "\t" : " ".repeat(s.length()));
                    }
                }
                err.println(shown);
                err.println(colored ? caret + GREEN + "^" + RESET : caret.append('^').toString());
            }
        }
    }

    /** {@code gpu-translate: error: message}, the tool's own errors, coloured as diagnostics are. */
    void toolError(String message) {
        err.println(colored ? BOLD + "gpu-translate: " + RED + "error: " + RESET + BOLD + message + RESET
                : "gpu-translate: error: " + message);
    }

    private static String sourceLine(byte[] input, int line) {
        int cur = 1;
        int start = 0;
        for (int i = 0; i < input.length && cur < line; i++) {
            if (input[i] == '\n') {
                cur++;
                start = i + 1;
            }
        }
        if (cur != line || start > input.length) {
            return null;
        }
        int end = start;
        while (end < input.length && input[end] != '\n' && end - start < 200) {
            end++;
        }
        return new String(input, start, end - start, StandardCharsets.UTF_8);
    }
}
