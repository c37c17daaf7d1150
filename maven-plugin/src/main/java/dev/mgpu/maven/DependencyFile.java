package dev.mgpu.maven;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads the first rule of a Make-style dependency file, as {@code gpu-translate -MD -MF} (and clang) write
 * one: {@code TARGET: PREREQUISITE...}, lines continued by a backslash, a space or {@code #} in a name
 * escaped by a backslash, {@code $} written {@code $$}, and backslashes before a space doubled.
 */
final class DependencyFile {
    private DependencyFile() {
    }

    /**
     * The prerequisites of the first rule in {@code text}, unescaped, in order.
     *
     * @param text the file's contents
     * @return the names after the first rule's colon; empty when there is no rule
     */
    static List<String> prerequisites(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean afterColon = false;
        int n = text.length();
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                int run = i;
                while (run < n && text.charAt(run) == '\\') {
                    run++;
                }
                int count = run - i;
                char next = run < n ? text.charAt(run) : '\n';
                if (next == ' ') {
                    word.append("\\".repeat(count / 2));
                    if (count % 2 == 1) {
                        word.append(' ');
                        i = run;
                    } else {
                        i = run - 1;
                    }
                    continue;
                }
                if (count == 1 && (next == '#' || next == '\n' || next == '\r')) {
                    if (next == '#') {
                        word.append('#');
                    }
                    i = next == '\r' && run + 1 < n && text.charAt(run + 1) == '\n' ? run + 1 : run;
                    if (next != '#') {
                        end(word, words, afterColon);
                    }
                    continue;
                }
                word.append("\\".repeat(count));
                i = run - 1;
            } else if (c == '$' && i + 1 < n && text.charAt(i + 1) == '$') {
                word.append('$');
                i++;
            } else if (c == ':' && !afterColon && (i + 1 == n || Character.isWhitespace(text.charAt(i + 1)))) {
                word.setLength(0);
                afterColon = true;
            } else if (c == '\n') {
                if (afterColon) {
                    end(word, words, true);
                    return words;
                }
                word.setLength(0);
            } else if (c == ' ' || c == '\t' || c == '\r') {
                end(word, words, afterColon);
            } else {
                word.append(c);
            }
        }
        end(word, words, afterColon);
        return words;
    }

    private static void end(StringBuilder word, List<String> words, boolean afterColon) {
        if (afterColon && word.length() > 0) {
            words.add(word.toString());
        }
        word.setLength(0);
    }
}
