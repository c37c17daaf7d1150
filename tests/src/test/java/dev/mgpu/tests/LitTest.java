package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every {@code tests/mlir/**.mlir} file with {@code // RUN:} lines, as LLVM's lit does: each line is a
 * shell pipeline with {@code %s} (the file), {@code %S} (its directory) and {@code %t} (a scratch path)
 * substituted, and {@code gpu-translate}, {@code FileCheck} and {@code not} on PATH. A line
 * {@code // REQUIRES: tool} skips the file when that tool is missing.
 */
class LitTest {
    @TestFactory
    Stream<DynamicTest> lit() throws IOException {
        Path bin = Files.createTempDirectory("mgpu-lit-bin");
        Path fileCheck = TestPaths.findTool("FileCheck", "FileCheck-22", "FileCheck-14");
        if (fileCheck != null) {
            Files.createSymbolicLink(bin.resolve("FileCheck"), fileCheck);
        }
        String path = String.join(":", TestPaths.root().resolve("tools").toString(),
                TestPaths.root().resolve("tests/bin").toString(), bin.toString(),
                System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        // The files run side by side, one per processor, as lit runs them: each test waits for its own file's
        // result (the suite's longest class, 149 s, when they ran one after another on two processors).
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()),
                r -> {
                    Thread t = new Thread(r, "lit");
                    t.setDaemon(true);
                    return t;
                });
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> files = Files.walk(TestPaths.mlirDir())) {
            for (Path f : files.filter(p -> p.toString().endsWith(".mlir")).sorted().toList()) {
                List<String> runs = runLines(f);
                if (runs.isEmpty()) {
                    continue;
                }
                String name = TestPaths.mlirDir().relativize(f).toString();
                Future<?> result = pool.submit(() -> {
                    runFile(f, runs, path, fileCheck != null);
                    return null;
                });
                tests.add(DynamicTest.dynamicTest(name, f.toUri(), () -> {
                    try {
                        result.get(20, TimeUnit.MINUTES);
                    } catch (ExecutionException e) {
                        throw e.getCause();
                    }
                }));
            }
        } finally {
            pool.shutdown();
        }
        assertTrue(tests.size() > 0, "no lit tests found under " + TestPaths.mlirDir());
        return tests.stream();
    }

    /** What to do with a lit file, given whether its RUN lines call FileCheck and whether it is installed. */
    enum FileCheckPolicy { RUN, SKIP, FAIL }

    /**
     * A file whose RUN lines need no FileCheck always runs; one that needs it is skipped where FileCheck is
     * missing, except in CI, where a missing FileCheck fails the suite instead of hiding its tests.
     */
    static FileCheckPolicy whenFileCheck(List<String> runs, boolean haveFileCheck, boolean ci) {
        boolean needs = runs.stream().anyMatch(r -> r.matches(".*\\bFileCheck\\b.*"));
        if (!needs || haveFileCheck) {
            return FileCheckPolicy.RUN;
        }
        return ci ? FileCheckPolicy.FAIL : FileCheckPolicy.SKIP;
    }

    static List<String> runLines(Path f) throws IOException {
        List<String> runs = new ArrayList<>();
        StringBuilder cur = null;
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
            int i = line.indexOf("// RUN:");
            if (i < 0) {
                continue;
            }
            String body = line.substring(i + 7).strip();
            boolean cont = body.endsWith("\\");
            if (cont) {
                body = body.substring(0, body.length() - 1);
            }
            cur = cur == null ? new StringBuilder(body) : cur.append(' ').append(body);
            if (!cont) {
                runs.add(cur.toString());
                cur = null;
            }
        }
        return runs;
    }

    private static List<String> requirements(Path f) throws IOException {
        List<String> req = new ArrayList<>();
        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
            int i = line.indexOf("// REQUIRES:");
            if (i >= 0) {
                for (String r : line.substring(i + 12).split(",")) {
                    req.add(r.strip());
                }
            }
        }
        return req;
    }

    private static void runFile(Path f, List<String> runs, String path, boolean haveFileCheck) throws Exception {
        for (String r : requirements(f)) {
            assumeTrue(TestPaths.findTool(r) != null, "requires " + r);
        }
        switch (whenFileCheck(runs, haveFileCheck, System.getenv("CI") != null)) {
            case SKIP:
                assumeTrue(false, "FileCheck is not installed");
                break;
            case FAIL:
                fail("FileCheck is not installed, and CI must run every lit file: install llvm-14-tools");
                break;
            default:
                break;
        }
        Path scratch = Files.createTempDirectory("mgpu-lit");
        for (String run : runs) {
            String cmd = run.replace("%mgpu_root", TestPaths.root().toString()).replace("%s", f.toString()).replace("%S", f.getParent().toString())
                    .replace("%t", scratch.resolve("t").toString());
            ProcessBuilder pb = new ProcessBuilder("bash", "-o", "pipefail", "-c", cmd);
            pb.environment().put("PATH", path);
            pb.directory(scratch.toFile());
            pb.redirectErrorStream(true);
            Process p = pb.start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("timed out: " + cmd);
            }
            if (p.exitValue() != 0) {
                fail("RUN line failed with exit " + p.exitValue() + ":\n  " + cmd + "\n"
                        + new String(out, StandardCharsets.UTF_8));
            }
        }
    }
}
