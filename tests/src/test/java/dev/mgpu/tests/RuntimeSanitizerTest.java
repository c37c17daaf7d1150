package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.mgpu.codegen.LoadStrategy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * libmgpu built with AddressSanitizer and UndefinedBehaviorSanitizer (CMake option MGPU_SANITIZE) runs the
 * runtime's C tests, on the CPU backend and the driver stand-ins, and the CPU-backend end-to-end programs,
 * with the same expected outputs as the ordinary build. A memory error, leak or undefined behaviour ends the
 * program with the sanitizer's report, which fails the check that ran it.
 */
class RuntimeSanitizerTest {
    private static final List<String> FLAGS = List.of("-fsanitize=address,undefined", "-fno-sanitize-recover=all",
            "-fno-omit-frame-pointer");
    /** The runtime refuses sizes no machine has, which ASan would otherwise treat as a fault of its own. */
    private static final Map<String, String> ENV = Map.of("ASAN_OPTIONS", "allocator_may_return_null=1",
            "UBSAN_OPTIONS", "print_stacktrace=1");
    private static RuntimeChecks checks;

    @BeforeAll
    static void build() throws Exception {
        Path root = TestPaths.root();
        Path lib = root.resolve("tests/target/libmgpu-sanitize");
        Native.exec(root, Map.of(), "cmake", "-S", root.resolve("runtime-c").toString(), "-B", lib.toString(),
                "-DMGPU_SANITIZE=ON", "-DCMAKE_BUILD_TYPE=RelWithDebInfo");
        Native.exec(root, Map.of(), "cmake", "--build", lib.toString(), "--target", "mgpu");
        checks = new RuntimeChecks(Files.createTempDirectory("mgpu-sanitize"), lib, FLAGS, ENV);
    }

    @TestFactory
    Stream<DynamicTest> runtimeChecks() {
        return checks.all().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), e.getValue()));
    }

    /**
     * The CPU backend's streams under ThreadSanitizer (CMake option MGPU_SANITIZE_THREAD, into
     * {@code tests/target/libmgpu-tsan}): libmgpu, the program and its kernels instrumented, so that a data race
     * in the streams' queues, events or thread pool ends the program with the sanitizer's report.
     */
    @Test
    void cpuStreamsUnderThreadSanitizer() throws Exception {
        Path root = TestPaths.root();
        Path lib = root.resolve("tests/target/libmgpu-tsan");
        Native.exec(root, Map.of(), "cmake", "-S", root.resolve("runtime-c").toString(), "-B", lib.toString(),
                "-DMGPU_SANITIZE_THREAD=ON", "-DCMAKE_BUILD_TYPE=RelWithDebInfo");
        Native.exec(root, Map.of(), "cmake", "--build", lib.toString(), "--target", "mgpu");
        new RuntimeChecks(Files.createTempDirectory("mgpu-tsan"), lib, List.of("-fsanitize=thread",
                "-fno-omit-frame-pointer"), Map.of("TSAN_OPTIONS", "halt_on_error=1")).cpuStreamsRunSideBySide();
    }

    /** The end-to-end programs of {@link EndToEndTest} on the CPU backend, lazily loaded, and the selection test. */
    @TestFactory
    Stream<DynamicTest> endToEnd() throws Exception {
        Path work = Files.createTempDirectory("mgpu-sanitize-e2e");
        List<DynamicTest> tests = new ArrayList<>();
        for (EndToEndTest.Case c : EndToEndTest.cases()) {
            tests.add(DynamicTest.dynamicTest(c.name(), () -> {
                Path dir = Files.createDirectories(work.resolve(c.name()));
                Path exe = checks.link(c.name(), c.main(), EndToEndTest.hostObject(c, LoadStrategy.LAZY, dir));
                assertEquals(c.expected(), run(dir, exe).strip());
            }));
        }
        tests.add(DynamicTest.dynamicTest("select order", () -> {
            Path exe = checks.link("select_test", TestPaths.root().resolve("tests/e2e/select/select_test.c"));
            assertEquals(10, run(work, exe).strip().lines().count());
        }));
        return tests.stream();
    }

    private static String run(Path dir, Path exe) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(ENV);
        env.put("MGPU_BACKEND", "cpu");
        return Native.exec(dir, env, exe.toString());
    }
}
