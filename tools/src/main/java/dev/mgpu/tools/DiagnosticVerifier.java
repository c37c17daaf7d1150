package dev.mgpu.tools;

import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.Location;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks diagnostics against {@code // expected-error @+N {{text}}} annotations in a chunk of input: every
 * expected message must be produced on its line, and every produced error must be expected.
 */
final class DiagnosticVerifier {
    private static final Pattern EXPECTED = Pattern.compile(
            "expected-(error|warning|note)\\s*(@(above|below|[+-]\\d+|\\d+))?\\s*\\{\\{(.*?)\\}\\}");

    record Expectation(int line, String severity, String text, int sourceLine) {
    }

    private DiagnosticVerifier() {
    }

    /** Reads the annotations of bytes {@code [start, end)}, with line numbers of the whole input. */
    static List<Expectation> expectations(byte[] input, int start, int end) {
        List<Expectation> out = new ArrayList<>();
        int line = 1;
        for (int i = 0; i < start; i++) {
            if (input[i] == '\n') {
                line++;
            }
        }
        int ls = start;
        for (int i = start; i <= end; i++) {
            if (i == end || input[i] == '\n') {
                String text = new String(input, ls, i - ls, StandardCharsets.UTF_8);
                int c = text.indexOf("//");
                if (c >= 0) {
                    Matcher m = EXPECTED.matcher(text.substring(c));
                    while (m.find()) {
                        int target = line;
                        String rel = m.group(3);
                        if (rel != null) {
                            if (rel.equals("above")) {
                                target = line - 1;
                            } else if (rel.equals("below")) {
                                target = line + 1;
                            } else if (rel.startsWith("+") || rel.startsWith("-")) {
                                target = line + Integer.parseInt(rel);
                            } else {
                                target = Integer.parseInt(rel);
                            }
                        }
                        out.add(new Expectation(target, m.group(1), m.group(4), line));
                    }
                }
                line++;
                ls = i + 1;
            }
        }
        return out;
    }

    /** Returns the mismatches, each as a located message; empty when the diagnostics are exactly as expected. */
    static List<String> check(String file, List<Expectation> expected, List<Diagnostic> actual) {
        List<String> problems = new ArrayList<>();
        List<Diagnostic> unmatched = new ArrayList<>(actual);
        for (Expectation e : expected) {
            Diagnostic hit = null;
            for (Diagnostic d : unmatched) {
                if (d.severity().label().equals(e.severity()) && lineOf(d.location()) == e.line()
                        && d.message().contains(e.text())) {
                    hit = d;
                    break;
                }
            }
            if (hit == null) {
                problems.add(file + ":" + e.sourceLine() + ": error: expected " + e.severity() + " \"" + e.text()
                        + "\" on line " + e.line() + " was not produced");
            } else {
                unmatched.remove(hit);
            }
        }
        for (Diagnostic d : unmatched) {
            problems.add(d.location() + ": error: unexpected " + d.severity().label() + ": " + d.message());
        }
        return problems;
    }

    private static int lineOf(Location l) {
        if (l instanceof Location.FileLineCol f) {
            return f.line();
        }
        if (l instanceof Location.Named n) {
            return lineOf(n.child());
        }
        return -1;
    }
}
