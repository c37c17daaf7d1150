package dev.mgpu.tools;

import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.Location;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks diagnostics against {@code // expected-error @+N {{text}}} annotations in a chunk of input, as
 * upstream's {@code -verify-diagnostics} does: every expected message must be produced on its line, and every
 * produced error must be expected. Severities are {@code error}, {@code warning}, {@code note} and
 * {@code remark}; the line is the annotation's own, {@code @+N}/{@code @-N} lines away, or with
 * {@code @above}/{@code @below} the nearest line above or below that holds no annotation.
 */
final class DiagnosticVerifier {
    private static final Pattern EXPECTED = Pattern.compile(
            "expected-(error|warning|note|remark)\\s*(@([^\\s{]*))?\\s*\\{\\{(.*?)\\}\\}");
    private static final Pattern OFFSET = Pattern.compile("[+-]\\d+");

    /**
     * One {@code expected-...} annotation. {@code line} is -1 where no line fits, {@code problem} non-null
     * where the annotation is malformed.
     *
     * @param line the line the diagnostic is expected on, or -1
     * @param severity {@code error}, {@code warning}, {@code note} or {@code remark}
     * @param text the text the diagnostic's message must contain
     * @param sourceLine the line that holds the annotation
     * @param problem what is wrong with the annotation, or null
     */
    record Expectation(int line, String severity, String text, int sourceLine, String problem) {
        Expectation(int line, String severity, String text, int sourceLine) {
            this(line, severity, text, sourceLine, null);
        }
    }

    private DiagnosticVerifier() {
    }

    /** Reads the annotations of bytes {@code [start, end)}, with line numbers of the whole input. */
    static List<Expectation> expectations(byte[] input, int start, int end) {
        int first = 1;
        for (int i = 0; i < start; i++) {
            if (input[i] == '\n') {
                first++;
            }
        }
        List<String> lines = new ArrayList<>();
        int ls = start;
        for (int i = start; i <= end; i++) {
            if (i == end || input[i] == '\n') {
                lines.add(new String(input, ls, i - ls, StandardCharsets.UTF_8));
                ls = i + 1;
            }
        }
        List<List<MatchResult>> found = new ArrayList<>();
        for (String text : lines) {
            List<MatchResult> ms = new ArrayList<>();
            int c = text.indexOf("//");
            if (c >= 0) {
                Matcher m = EXPECTED.matcher(text.substring(c));
                while (m.find()) {
                    ms.add(m.toMatchResult());
                }
            }
            found.add(ms);
        }
        List<Expectation> out = new ArrayList<>();
        for (int k = 0; k < lines.size(); k++) {
            int line = first + k;
            for (MatchResult m : found.get(k)) {
                String at = m.group(3);
                int target = line;
                String problem = null;
                if (at == null) {
                    // No location: the annotation's own line.
                } else if (at.equals("above")) {
                    target = annotationFree(found, k, -1, first);
                } else if (at.equals("below")) {
                    target = annotationFree(found, k, +1, first);
                } else if (OFFSET.matcher(at).matches()) {
                    target = line + Integer.parseInt(at);
                } else {
                    // Upstream would silently skip such a line; an annotation nobody checks is worse than an error.
                    problem = "Invalid expected-" + m.group(1) + " location (must be @above, @below, @+N or @-N): @"
                            + at;
                }
                out.add(new Expectation(target, m.group(1), m.group(4), line, problem));
            }
        }
        return out;
    }

    /** The line number of the nearest line from {@code k} in direction {@code step} without annotations, or -1. */
    private static int annotationFree(List<List<MatchResult>> found, int k, int step, int first) {
        for (int j = k + step; j >= 0 && j < found.size(); j += step) {
            if (found.get(j).isEmpty()) {
                return first + j;
            }
        }
        return -1;
    }

    /** Returns the mismatches, each as a located message; empty when the diagnostics are exactly as expected. */
    static List<String> check(String file, List<Expectation> expected, List<Diagnostic> actual) {
        List<String> problems = new ArrayList<>();
        List<Diagnostic> unmatched = new ArrayList<>(actual);
        for (Expectation e : expected) {
            if (e.problem() != null) {
                problems.add(file + ":" + e.sourceLine() + ": error: " + e.problem());
                continue;
            }
            if (e.line() < 0) {
                problems.add(file + ":" + e.sourceLine() + ": error: expected " + e.severity() + " \"" + e.text()
                        + "\" has no line without annotations to refer to");
                continue;
            }
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
