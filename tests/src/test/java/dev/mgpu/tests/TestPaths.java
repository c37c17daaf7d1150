package dev.mgpu.tests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
}
