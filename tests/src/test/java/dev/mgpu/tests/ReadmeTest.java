package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's shell blocks stay true to the tree: each runs as written in a fresh directory, or says on the
 * line before it why it does not; every file of the repository that a block names exists
 * (followed from the directory its {@code cd} commands reach), a program linked against libmgpu can find it
 * when it runs, the packages that CI installs are among the ones the README says are needed, and a
 * benchmark run that takes minutes says so.
 */
class ReadmeTest {
    private static final List<String> TOP = List.of("tools/", "examples/", "runtime-c/", "tests/", "bench/", "../");

    record Block(int line, String text, String before) {
    }

    static List<Block> shellBlocks(String readme) {
        List<Block> blocks = new ArrayList<>();
        String[] lines = readme.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].equals("```sh")) {
                StringBuilder text = new StringBuilder();
                int start = i + 1;
                for (i++; i < lines.length && !lines[i].equals("```"); i++) {
                    text.append(lines[i]).append('\n');
                }
                StringBuilder before = new StringBuilder();
                for (int j = Math.max(0, start - 5); j < start - 1; j++) {
                    before.append(lines[j]).append('\n');
                }
                blocks.add(new Block(start, text.toString(), before.toString()));
            }
        }
        return blocks;
    }

    /** A command line without its trailing comment. */
    static String code(String line) {
        int hash = line.indexOf(" #");
        return hash < 0 ? line : line.substring(0, hash);
    }

    /** The paths inside the repository that {@code words} name, relative to {@code cwd}. */
    static List<Path> repositoryPaths(Path cwd, String command) {
        List<Path> out = new ArrayList<>();
        for (String word : command.trim().split("\\s+")) {
            for (String part : word.replaceAll("[\"']", "").split("[:=]")) {
                if (TOP.stream().anyMatch(part::startsWith) && !part.contains("$") && !part.contains("*")
                        && !part.contains("/target/") && !part.contains("build")) {
                    out.add(cwd.resolve(part).normalize());
                }
            }
        }
        return out;
    }

    @Test
    void shellBlocksNameFilesThatExist() throws Exception {
        Path root = TestPaths.root();
        List<Block> blocks = shellBlocks(Files.readString(root.resolve("README.md")));
        assertTrue(blocks.size() >= 8, "shell blocks found: " + blocks.size());
        List<String> missing = new ArrayList<>();
        int checked = 0;
        for (Block b : blocks) {
            Path cwd = root;
            for (String line : b.text().split("\n")) {
                for (String command : code(line).split("&&|;")) {
                    String c = command.trim();
                    if (c.startsWith("cd ")) {
                        cwd = cwd.resolve(c.substring(3).trim()).normalize();
                        if (!Files.isDirectory(cwd)) {
                            missing.add("README.md:" + b.line() + ": cd " + cwd);
                        }
                        continue;
                    }
                    for (Path p : repositoryPaths(cwd, c)) {
                        checked++;
                        if (!Files.exists(p)) {
                            missing.add("README.md:" + b.line() + ": " + root.relativize(p));
                        }
                    }
                }
            }
        }
        assertTrue(checked >= 5, "paths checked: " + checked);
        assertEquals(List.of(), missing);
    }

    @Test
    void programsLinkedAgainstTheBuildTreeFindLibmgpu() throws Exception {
        String readme = Files.readString(TestPaths.root().resolve("README.md"));
        int links = 0;
        for (Block b : shellBlocks(readme)) {
            for (String line : b.text().split("\n")) {
                String c = code(line);
                if (c.matches(".*\\s-lmgpu\\b.*") && c.matches(".*\\s-L\\S+.*")) {
                    links++;
                    assertTrue(c.contains("-Wl,-rpath,"), "README.md:" + b.line() + ": links libmgpu from a"
                            + " directory the loader does not search, without an rpath: " + line);
                }
            }
        }
        assertTrue(links >= 1, "no block links libmgpu");
    }

    @Test
    void needsNamesWhatCiInstalls() throws Exception {
        String readme = Files.readString(TestPaths.root().resolve("README.md"));
        String needs = readme.substring(readme.indexOf("\nNeeds "), readme.indexOf("\n## ", readme.indexOf("\nNeeds ")));
        Matcher m = Pattern.compile("need\\+=\\(([^)]+)\\)").matcher(Files.readString(TestPaths.root().resolve(".ci/run")));
        List<String> packages = new ArrayList<>();
        while (m.find()) {
            // Versioned and development packages: the ones a reader cannot guess from a tool's name.
            if (m.group(1).matches(".*(\\d|-dev|-tools).*")) {
                packages.add(m.group(1));
            }
        }
        assertTrue(packages.contains("libamdhip64-dev"), packages.toString());
        for (String p : packages) {
            assertTrue(needs.contains("`" + p + "`"), "README's Needs does not name " + p + ":\n" + needs);
        }
    }

    /** The line before a block that this test does not run, and why. */
    private static final Pattern NOT_RUN = Pattern.compile("<!-- ReadmeTest does not run this block: (.+) -->\n$");

    /**
     * Every shell block runs as written, in a fresh directory that reaches the repository's files by the same
     * relative names (a link to each) and whose HOME is its own, with bash's -e and pipefail; a block that does
     * not run says why, on the line before it.
     */
    @Test
    void everyShellBlockRunsOrSaysWhyNot() throws Exception {
        Path root = TestPaths.root();
        int ran = 0;
        int skipped = 0;
        for (Block b : shellBlocks(Files.readString(root.resolve("README.md")))) {
            Matcher why = NOT_RUN.matcher(b.before());
            if (why.find()) {
                assertTrue(why.group(1).strip().length() > 10, "README.md:" + b.line() + ": no reason given");
                skipped++;
                continue;
            }
            Path dir = Files.createTempDirectory("mgpu-readme-block");
            try (var entries = Files.list(root)) {
                for (Path e : entries.filter(p -> !p.getFileName().toString().equals(".git")).toList()) {
                    Files.createSymbolicLink(dir.resolve(e.getFileName().toString()), e);
                }
            }
            Path home = Files.createDirectories(dir.resolve("home"));
            Native.Result r = Native.run(dir, java.util.Map.of("HOME", home.toString()),
                    List.of("bash", "-euo", "pipefail", "-c", b.text()));
            assertEquals(0, r.exit(), "README.md:" + b.line() + ": the block fails:\n" + b.text() + r.out() + r.err());
            ran++;
        }
        assertTrue(ran >= 4, "blocks run: " + ran);
        assertTrue(skipped <= 12, "blocks not run: " + skipped);
    }

    @Test
    void longRunsSayHowLong() throws Exception {
        String readme = Files.readString(TestPaths.root().resolve("README.md"));
        int jmh = 0;
        for (Block b : shellBlocks(readme)) {
            if (b.text().contains("org.openjdk.jmh.Main") || b.text().contains("mvn -B verify")) {
                jmh++;
                assertTrue(b.before().matches("(?s).*\\d+(-\\d+)? minutes.*"),
                        "README.md:" + b.line() + ": the text before this block does not say how long it runs:\n"
                                + b.before());
            }
        }
        assertEquals(2, jmh);
        assertFalse(readme.contains("AxpyFromJava ../axpy "), "the Java example's old path");
    }
}
