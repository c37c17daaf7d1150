package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Building and running the C side of end-to-end tests: kernels, host programs linked with libmgpu. */
final class Native {
    private Native() {
    }

    /** What a finished process printed. */
    record Result(int exit, String out, String err) {
    }

    static Path include() {
        return TestPaths.root().resolve("runtime-c/include");
    }

    static Path libDir() {
        return TestPaths.root().resolve("runtime-c/build");
    }

    /** Runs {@code cmd} in {@code dir}; stdout and stderr are kept apart. */
    static Result run(Path dir, Map<String, String> env, List<String> cmd) throws IOException, InterruptedException {
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(err.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "timed out: " + String.join(" ", cmd));
        String errText = Files.readString(err);
        Files.delete(err);
        return new Result(p.exitValue(), out, errText);
    }

    /** Runs {@code cmd}, requires exit 0, and returns stdout and stderr together. */
    static String exec(Path dir, Map<String, String> env, String... cmd) throws IOException, InterruptedException {
        Result r = run(dir, env, List.of(cmd));
        assertEquals(0, r.exit(), String.join(" ", cmd) + " failed:\n" + r.out() + r.err());
        return r.out() + r.err();
    }

    /** Builds a CPU kernel library (mgpu.h's CPU kernel ABI) from {@code source}. */
    static Path cpuKernels(Path dir, String name, Path source) throws IOException, InterruptedException {
        Path so = dir.resolve(name + ".so");
        exec(dir, Map.of(), "cc", "-shared", "-fPIC", "-O2", "-I" + include(), source.toString(), "-o",
                so.toString());
        return so;
    }

    /** Links a C main with generated host objects and libmgpu. */
    static Path link(Path dir, String name, Path main, Path... objects) throws IOException, InterruptedException {
        Path exe = dir.resolve(name);
        String[] cmd = new String[objects.length + 9];
        cmd[0] = "cc";
        cmd[1] = "-I" + include();
        cmd[2] = main.toString();
        for (int i = 0; i < objects.length; i++) {
            cmd[3 + i] = objects[i].toString();
        }
        int k = 3 + objects.length;
        cmd[k++] = "-L" + libDir();
        cmd[k++] = "-Wl,-rpath," + libDir();
        cmd[k++] = "-lmgpu";
        cmd[k++] = "-lm";
        cmd[k++] = "-o";
        cmd[k] = exe.toString();
        exec(dir, Map.of(), cmd);
        return exe;
    }
}
