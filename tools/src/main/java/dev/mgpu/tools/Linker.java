package dev.mgpu.tools;

import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;

/** Links a generated object with libmgpu through the system C compiler. */
final class Linker {
    private Linker() {
    }

    static void link(byte[] object, Path output, String runtimeLib, Logger log) throws IOException {
        Path dir = Files.createTempDirectory("gpu-translate");
        Path obj = dir.resolve("host.o");
        try {
            Files.write(obj, object);
            String cc = System.getenv().getOrDefault("CC", "cc");
            Path tmpOut = dir.resolve("a.out");
            List<String> cmd = new ArrayList<>(List.of(cc, obj.toString(), "-o", tmpOut.toString()));
            String lib = runtimeLib != null ? runtimeLib : defaultRuntimeDir();
            if (lib != null) {
                cmd.add("-L" + lib);
                cmd.add("-Wl,-rpath," + Path.of(lib).toAbsolutePath());
            }
            cmd.addAll(List.of("-lmgpu", "-ldl", "-lpthread"));
            log.debug("linking: {}", String.join(" ", cmd));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
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
            Files.move(tmpOut, output.toAbsolutePath(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } finally {
            try (var s = Files.list(dir)) {
                for (Path f : s.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    /** {@code runtime-c/build} next to the tools directory, when present. */
    private static String defaultRuntimeDir() {
        String home = System.getProperty("mgpu.home");
        if (home == null) {
            return null;
        }
        Path p = Path.of(home, "runtime-c", "build");
        return Files.isDirectory(p) ? p.toString() : null;
    }
}
