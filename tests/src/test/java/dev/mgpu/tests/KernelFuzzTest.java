package dev.mgpu.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Generated kernels (KernelGenerator: well-formed programs from the fuzzer's bytes) compiled for each target
 * by {@code gpu-translate --emit=llvm} in a process of its own, many programs a run, split on
 * {@code // -----}: a run exits 0, or 1 with every error located in its input; the end of its JVM, an hs_err
 * file, an internal error (exit 3) or a run past its time is a finding, reported with the program that gives
 * it alone. Each input gives a batch of programs, so that it replays as it failed. tests/fuzz/run.sh fuzzes
 * for longer, and prints each session's figures.
 */
@Tag("kernel-fuzz")
class KernelFuzzTest {
    /** The targets of each batch, by name; gfx700 (no wavefront of 32, no f16 instructions) on every other. */
    private static final Map<String, String> TARGETS = new LinkedHashMap<>();

    static {
        TARGETS.put("sm_90", "#nvvm.target<chip = \"sm_90\">");
        TARGETS.put("sm_50", "#nvvm.target<chip = \"sm_50\">");
        TARGETS.put("gfx90a", "#rocdl.target<chip = \"gfx90a\">");
        TARGETS.put("gfx700", "#rocdl.target<chip = \"gfx700\">");
        TARGETS.put("cpu", "#cpu.target");
    }

    private static final Pattern LOCATED = Pattern.compile("^batch\\.mlir:(\\d+):\\d+: error: .*");
    private static final long TIMEOUT_SECONDS = 180;
    /**
     * Per target: programs compiled, programs with located errors, and errors that only LLVM's verifier or
     * back end found (located at the kernel module: a check before LLVM would locate them at the operation).
     */
    private static final Map<String, long[]> FIGURES = new LinkedHashMap<>();
    private static int inputs;
    /** The distinct errors that LLVM's verifier or back end reported, by target. */
    private static final java.util.Set<String> BY_LLVM = new java.util.TreeSet<>();
    /**
     * Mixed into each input's seed: 0 in the build, so that an input always gives the same programs; another
     * value ({@code -Dmgpu.kernelFuzz.salt=N}, which tests/fuzz/run.sh sets anew each session) gives other
     * programs from the same corpus. A finding names it.
     */
    private static final long SALT = Long.getLong("mgpu.kernelFuzz.salt", 0);
    private static final java.util.concurrent.ExecutorService POOL = java.util.concurrent.Executors.newFixedThreadPool(2,
            r -> {
                Thread t = new Thread(r, "kernel-fuzz");
                t.setDaemon(true);
                return t;
            });

    @FuzzTest(maxDuration = "40s")
    void kernels(FuzzedDataProvider data) throws Exception {
        long seed = Arrays.hashCode(data.consumeBytes(8)) ^ SALT;
        KernelGenerator g = new KernelGenerator(data, seed);
        int count = 6 + g.pick(16);
        List<String> programs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            programs.add(g.program(i));
        }
        List<String> targets = new ArrayList<>(TARGETS.keySet());
        if (inputs++ % 2 == 1) {
            targets.remove("gfx700");
        }
        // Two runs at a time: each is mostly one thread, the JVM's or llc's.
        Map<String, java.util.concurrent.Future<Run>> runs = new LinkedHashMap<>();
        for (String target : targets) {
            runs.put(target, POOL.submit(() -> compile(programs, target)));
        }
        for (String target : targets) {
            Run r = runs.get(target).get();
            String finding = r.finding();
            if (finding != null) {
                fail(finding + "\n(mgpu.kernelFuzz.salt=" + SALT + ")\n" + culprit(programs, target));
            }
            long[] f = FIGURES.computeIfAbsent(target, t -> new long[3]);
            f[0] += r.compiled();
            f[1] += r.erroneous().size();
            List<String> byLlvm = r.err().lines().filter(l -> l.contains("(must pass LLVM's verifier)")
                    || l.contains("(must be accepted by LLVM's back end")).toList();
            f[2] += byLlvm.size();
            for (String l : byLlvm) {
                // What LLVM found that the checks did not, once each: where a check before LLVM is missing.
                if (BY_LLVM.add(target + ": " + l.replaceFirst("^batch\\.mlir:\\d+:\\d+: ", ""))) {
                    Matcher m = LOCATED.matcher(l);
                    if (m.matches()) {
                        // Kept for a look: target/kernel-fuzz-by-llvm/TARGET-N.mlir.
                        Path keep = Files.createDirectories(Path.of("target", "kernel-fuzz-by-llvm"));
                        Files.writeString(keep.resolve(target + "-" + BY_LLVM.size() + ".mlir"), "// " + l + "\n"
                                + programs.get(r.part(Integer.parseInt(m.group(1)))).replace("TARGET", "[" + TARGETS.get(target) + "]"));
                    }
                }
            }
        }
    }

    /** The figures of this run, on standard output, for tests/fuzz/run.sh. */
    @AfterAll
    static void figures() {
        StringBuilder b = new StringBuilder("KernelFuzzTest figures:");
        FIGURES.forEach((t, f) -> b.append(' ').append(t).append(" compiled=").append(f[0]).append(" located-errors=")
                .append(f[1]).append(" by-llvm=").append(f[2]));
        System.out.println(b);
        BY_LLVM.forEach(m -> System.out.println("KernelFuzzTest found by LLVM: " + m));
    }

    /** What a split run does: an error in one part is located there, and the parts around it still compile. */
    @Test
    void aPartWithAnErrorLeavesTheOthersCompiled() throws Exception {
        String good = "module attributes {gpu.container_module} {\n  gpu.module @k TARGET {\n"
                + "    gpu.func @k(%a: memref<4xf32>) kernel {\n      %c0 = arith.constant 0 : index\n"
                + "      %v = memref.load %a[%c0] : memref<4xf32>\n      %w = arith.addf %v, %v : f32\n"
                + "      memref.store %w, %a[%c0] : memref<4xf32>\n      gpu.return\n    }\n  }\n}\n";
        String bad = good.replace("arith.addf %v, %v : f32", "arith.addi %v, %v : f32");
        for (String target : List.of("sm_90", "gfx90a", "cpu")) {
            Run r = compile(List.of(good, bad, good), target);
            assertEquals(null, r.finding(), target);
            assertEquals(1, r.exit(), r.err());
            assertEquals(List.of(1), r.erroneous(), r.err());
            assertEquals(2, r.compiled(), r.out());
            assertTrue(r.err().startsWith("batch.mlir:" + (good.split("\n").length + 1 + 6) + ":12: error: "), r.err());
        }
    }

    /** One run of gpu-translate over programs for a target. */
    private record Run(List<String> programs, int exit, boolean timedOut, boolean hsErr, String out, String err,
            int[] starts) {
        /** The parts that compiled: those with output. */
        int compiled() {
            return (int) Arrays.stream(out.split("// -----\n", -1)).filter(s -> s.startsWith("; ModuleID = ")).count();
        }

        /** The parts (0-based) named by a located error. */
        List<Integer> erroneous() {
            List<Integer> parts = new ArrayList<>();
            for (String line : err.split("\n")) {
                Matcher m = LOCATED.matcher(line);
                if (m.matches()) {
                    int part = part(Integer.parseInt(m.group(1)));
                    if (!parts.contains(part)) {
                        parts.add(part);
                    }
                }
            }
            return parts;
        }

        /** The part (0-based) that holds line {@code at} of the batch. */
        int part(int at) {
            int part = 0;
            while (part + 1 < starts.length && starts[part + 1] <= at) {
                part++;
            }
            return part;
        }

        /** Why this run is a finding, or null. */
        String finding() {
            if (timedOut) {
                return "gpu-translate ran past " + TIMEOUT_SECONDS + " s";
            }
            if (hsErr) {
                return "gpu-translate's JVM crashed (hs_err file), exit " + exit + ":\n" + err;
            }
            if (exit == 0) {
                return compiled() == programs.size() ? null : "exit 0 with " + compiled() + " of " + programs.size()
                        + " parts compiled";
            }
            if (exit != 1) {
                return "gpu-translate exited with " + exit + ":\n" + err;
            }
            if (erroneous().isEmpty()) {
                return "exit 1 without a located error:\n" + err;
            }
            for (String line : err.split("\n")) {
                if (line.contains("error:") && !LOCATED.matcher(line).matches()) {
                    return "an error not located in the input: " + line + "\n" + err;
                }
            }
            if (erroneous().size() + compiled() != programs.size()) {
                return erroneous().size() + " parts with errors and " + compiled() + " compiled of " + programs.size()
                        + ":\n" + err;
            }
            return null;
        }
    }

    /** gpu-translate over {@code programs} for {@code target}, in a directory of its own. */
    private static Run compile(List<String> programs, String target) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("mgpu-kernel-fuzz");
        try {
            StringBuilder text = new StringBuilder();
            int[] starts = new int[programs.size()];
            int line = 1;
            for (int i = 0; i < programs.size(); i++) {
                if (i > 0) {
                    text.append("// -----\n");
                    line++;
                }
                starts[i] = line;
                String p = programs.get(i).replace("TARGET", "[" + TARGETS.get(target) + "]");
                text.append(p);
                line += (int) p.chars().filter(c -> c == '\n').count();
            }
            Files.writeString(dir.resolve("batch.mlir"), text);
            ProcessBuilder pb = new ProcessBuilder(TestPaths.root().resolve("tools/gpu-translate").toString(),
                    "--split-input-file", "--emit=llvm", "--gpu-format=assembly", "batch.mlir").directory(dir.toFile())
                    .redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile());
            pb.environment().put("MGPU_SERVER", "0");
            Process p = pb.start();
            boolean done = p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!done) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor();
            }
            boolean hsErr;
            try (Stream<Path> s = Files.list(dir)) {
                hsErr = s.anyMatch(f -> f.getFileName().toString().startsWith("hs_err"));
            }
            return new Run(programs, p.exitValue(), !done, hsErr, Files.readString(dir.resolve("out")),
                    Files.readString(dir.resolve("err")), starts);
        } finally {
            Native.exec(dir.getParent(), Map.of(), "rm", "-rf", dir.toString());
        }
    }

    /** The first program that is a finding alone, with what its run gives, or a note that none is alone. */
    private static String culprit(List<String> programs, String target) throws IOException, InterruptedException {
        for (String p : programs) {
            Run r = compile(List.of(p), target);
            if (r.finding() != null) {
                return "for " + target + ", alone: " + r.finding() + "\n" + p.replace("TARGET", "[" + TARGETS.get(target)
                        + "]");
            }
        }
        return "no program is a finding alone for " + target + "; the batch:\n" + String.join("// -----\n", programs);
    }
}
