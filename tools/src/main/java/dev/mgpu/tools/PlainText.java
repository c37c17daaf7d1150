package dev.mgpu.tools;

/**
 * Checks on short texts (file names, numbers the launcher passes) written out by hand where a run's start
 * would otherwise make its first regular expression, some 2 ms.
 */
final class PlainText {
    private PlainText() {
    }

    /** Whether {@code s}[from, to) is not empty and all ASCII digits, as {@code \d+} matches. */
    static boolean digits(String s, int from, int to) {
        if (from >= to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code s}[from, to) holds no line terminator, so that a pattern's {@code .} matches each of it. */
    static boolean onOneLine(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
                return false;
            }
        }
        return true;
    }
}
