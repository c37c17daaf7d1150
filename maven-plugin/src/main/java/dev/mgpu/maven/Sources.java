package dev.mgpu.maven;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The files under a directory that Maven-style include and exclude patterns select: {@code *} matches
 * within a name, {@code ?} one character of it, {@code **} any number of directories ({@code **}{@code /*.mlir}
 * matches {@code a.mlir} and {@code x/y/a.mlir}); a pattern ending in {@code /} means everything below.
 */
final class Sources {
    private Sources() {
    }

    /**
     * The regular files under {@code root} that some include matches and no exclude does, as paths relative
     * to {@code root} with {@code /} between names, sorted.
     *
     * @param root the directory to search; none gives no files
     * @param includes the patterns that select files
     * @param excludes the patterns that take files out again
     * @return the selected files, relative to {@code root}
     * @throws IOException when the tree cannot be read
     */
    static List<String> select(Path root, List<String> includes, List<String> excludes) throws IOException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        List<Pattern> in = includes.stream().map(Sources::regex).toList();
        List<Pattern> out = excludes.stream().map(Sources::regex).toList();
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(r -> in.stream().anyMatch(p -> p.matcher(r).matches()))
                    .filter(r -> out.stream().noneMatch(p -> p.matcher(r).matches()))
                    .sorted()
                    .toList();
        }
    }

    /**
     * The regular expression of one pattern.
     *
     * @param pattern a pattern in the syntax above
     * @return the expression that matches the relative paths it selects
     */
    static Pattern regex(String pattern) {
        String p = pattern.replace('\\', '/');
        if (p.endsWith("/")) {
            p += "**";
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (p.startsWith("**/", i)) {
                b.append("(?:.*/)?");
                i += 2;
            } else if (p.startsWith("**", i)) {
                b.append(".*");
                i++;
            } else if (c == '*') {
                b.append("[^/]*");
            } else if (c == '?') {
                b.append("[^/]");
            } else {
                b.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(b.toString());
    }
}
