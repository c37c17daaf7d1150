package dev.mgpu.tests;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** Where the repository's tools and test files are, and which external tools exist. */
final class TestPaths {
    private TestPaths() {
    }

    static Path root() {
        String r = System.getProperty("mgpu.root");
        return (r != null ? Path.of(r) : Path.of("..")).toAbsolutePath().normalize();
    }

    static Path mlirDir() {
        return root().resolve("tests/mlir");
    }

    /** Every .mlir file under {@code tests/mlir/sub}, sorted. */
    static List<Path> mlirFiles(String sub) throws IOException {
        try (Stream<Path> s = Files.walk(mlirDir().resolve(sub))) {
            return s.filter(p -> p.toString().endsWith(".mlir")).sorted().toList();
        }
    }

    /**
     * The files and directories under {@code dir}, at most {@code depth} levels down, that {@code keep}
     * accepts, sorted; build outputs ({@code target}) and hidden directories (a fuzzer's corpus) left out, and
     * a file that another test class removes meanwhile (the classes run side by side) skipped rather than
     * failing the walk.
     */
    static List<Path> sourceFiles(Path dir, int depth, Predicate<Path> keep) throws IOException {
        List<Path> out = new ArrayList<>();
        Files.walkFileTree(dir, Set.of(), depth, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes a) {
                if (d.equals(dir)) {
                    return FileVisitResult.CONTINUE;
                }
                String name = d.getFileName().toString();
                if (name.equals("target") || name.startsWith(".")) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                return visitFile(d, a);
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes a) {
                if (keep.test(f)) {
                    out.add(f);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path f, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }
        });
        out.sort(null);
        return out;
    }

    /** The first of {@code names} found on PATH or in /usr/lib/llvm-N/bin, or null. */
    static Path findTool(String... names) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String n : names) {
            for (String dir : path.split(":")) {
                Path p = Path.of(dir.isEmpty() ? "." : dir, n);
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        for (String n : names) {
            for (String v : new String[] {"22", "20", "19", "18", "17", "16", "15", "14"}) {
                Path p = Path.of("/usr/lib/llvm-" + v + "/bin", n);
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    /**
     * A new directory outside the repository, in the system's temporary directory ({@code TMPDIR}, else
     * {@code /tmp}), for a test that checks that what it builds there does not point back into the repository
     * (the tests' own temporary directory is in the build's), or whose server's socket path must stay short.
     * The test deletes it with {@code ExternalTools.deleteTree}, as far as it can.
     */
    static Path outsideTemporaryDirectory(String prefix) throws IOException {
        String tmp = System.getenv("TMPDIR");
        return Files.createTempDirectory(Path.of(tmp == null || tmp.isEmpty() ? "/tmp" : tmp), prefix);
    }
}
