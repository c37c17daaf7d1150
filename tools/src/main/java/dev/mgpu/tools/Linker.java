package dev.mgpu.tools;

import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;

/** Links a generated object with libmgpu through the system C compiler. */
final class Linker {
    private Linker() {
    }

    /** The C compiler could not be started; the message names it and says why. */
    static final class CompilerMissing extends IOException {
        private static final long serialVersionUID = 1L;

        CompilerMissing(String m) {
            super(m);
        }
    }

    /**
     * Links {@code object} and {@code inputs} (objects, libraries, {@code -l} and {@code -L}, in order) into the
     * executable {@code output}, with libmgpu and, when it is there, the runner utilities beside it; put in place
     * only if {@code abandoned} does not say, once the link is done, that whoever asked has gone.
     */
    static void link(byte[] object, Path output, String runtimeLib, List<String> inputs, Logger log,
            BooleanSupplier abandoned, java.util.function.Consumer<List<String>> shown)
            throws IOException {
        Path dir = Files.createTempDirectory("gpu-translate");
        Path obj = dir.resolve("host.o");
        Path tmpOut = dir.resolve("a.out");
        // Newest first on SIGINT or SIGTERM: the files, then their directory.
        Sink.remember(dir);
        Sink.remember(obj);
        Sink.remember(tmpOut);
        try {
            Files.write(obj, object);
            String cc = System.getenv().getOrDefault("CC", "cc");
            List<String> cmd = new ArrayList<>(List.of(cc, obj.toString()));
            cmd.addAll(inputs);
            cmd.addAll(List.of("-o", tmpOut.toString()));
            String lib = runtimeLib != null ? runtimeLib : defaultRuntimeDir();
            if (lib != null) {
                cmd.add("-L" + lib);
                cmd.add("-Wl,-rpath," + Path.of(lib).toAbsolutePath());
            }
            if (lib != null && Files.exists(Path.of(lib, "libmgpu_runner_utils.so"))) {
                // What upstream's programs print through (printMemrefF32, printNewline, ...); only if used.
                cmd.addAll(List.of("-Wl,--push-state,--as-needed", "-lmgpu_runner_utils", "-Wl,--pop-state"));
            }
            cmd.addAll(List.of("-lmgpu", "-ldl", "-lpthread", "-lm"));
            log.debug("linking: {}", String.join(" ", cmd));
            if (shown != null) {
                // -###: the command is shown, not run, and the output is not made.
                shown.accept(cmd);
                return;
            }
            Process p;
            try {
                p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            } catch (IOException e) {
                // Java says "Cannot run program "cc": error=2, No such file or directory"; keep the reason.
                String m = String.valueOf(e.getMessage());
                int comma = m.indexOf(", ", m.indexOf("error="));
                throw new CompilerMissing("'" + cc + "': " + (m.contains("error=") && comma > 0
                        ? m.substring(comma + 2) : m));
            }
            String out = new String(p.getInputStream().readAllBytes());
            int rc;
            try {
                rc = p.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while linking");
            }
            if (rc != 0) {
                throw new MgpuException(Location.of(output.toString(), 0, 0),
                        "Invalid link (must succeed with " + cc + " and libmgpu): exit " + rc + "\n" + out.strip());
            }
            if (abandoned.getAsBoolean()) {
                return;
            }
            // Through a sink, as any output: a link is followed, a device written in place, a mode kept.
            try (Sink sink = Sink.open(output.toString(), null)) {
                if (sink.file() != null) {
                    Files.move(tmpOut, sink.file(), StandardCopyOption.REPLACE_EXISTING);
                } else {
                    Files.copy(tmpOut, sink.stream());
                }
                sink.commit();
            }
        } finally {
            Sink.forget(tmpOut);
            Sink.forget(obj);
            Sink.forget(dir);
            try (var s = Files.list(dir)) {
                for (Path f : s.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    /**
     * Where libmgpu is: {@code lib} of an installed image ({@code tools/make-image.sh}), else
     * {@code runtime-c/build} of the source tree, when present.
     */
    private static String defaultRuntimeDir() {
        String home = System.getProperty("mgpu.home");
        if (home == null) {
            return null;
        }
        for (Path p : new Path[] {Path.of(home, "lib"), Path.of(home, "runtime-c", "build")}) {
            if (Files.exists(p.resolve("libmgpu.so"))) {
                return p.toString();
            }
        }
        return null;
    }
}
