package dev.mgpu.codegen.internal.llvm;

import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The CPUs and CPU features LLVM knows for a target, so that an unknown {@code --mcpu} or {@code --mattr}
 * is refused before LLVM sees it: LLVM only warns about an unknown CPU, then aborts the process when the
 * CPU it fell back to lacks a feature the triple needs ("64-bit code requested on a subtarget that doesn't
 * support it"). The C API cannot list them, so they come from the {@code llc} of the same LLVM build,
 * which the LLVM artifact carries: {@code llc -mtriple=T -mcpu=help} prints both tables (about 0.1 s, once
 * per triple, and only when a CPU or features are given).
 */
public final class TargetCpus {
    private record Table(Set<String> cpus, Set<String> features) {
    }

    private static final Map<String, Table> TABLES = new ConcurrentHashMap<>();
    private static final Map<List<String>, String> PROBES = new ConcurrentHashMap<>();

    private TargetCpus() {
    }

    /** Throws a located error unless {@code cpu} (null for none) and {@code features} are {@code triple}'s. */
    public static void check(String triple, String cpu, String features, Location where) {
        if (features != null && triple.startsWith("x86_64")) {
            for (String f : features.split(",", -1)) {
                // The back end ends the process on code it then cannot encode; the probe's empty function does
                // not show it.
                if (f.strip().equals("-64bit-mode") || f.strip().equals("-64bit")) {
                    throw new MgpuException(where, "Invalid CPU features (must keep the 64-bit mode of " + triple
                            + "): " + f.strip());
                }
            }
        }
        if ((cpu == null || cpu.equals("native")) && (features == null || features.isEmpty())) {
            return;
        }
        checkKnown(triple, cpu, features, where);
        String problem = PROBES.computeIfAbsent(java.util.Arrays.asList(triple, cpu, features),
                k -> probe(triple, cpu, features, where));
        if (!problem.isEmpty()) {
            throw new MgpuException(where, "Invalid CPU or CPU features (must be usable for " + triple
                    + "; LLVM's code generator stops with \"" + problem + "\"): "
                    + (cpu == null ? "" : "--mcpu=" + cpu) + (cpu != null && features != null ? " " : "")
                    + (features == null ? "" : "--mattr=" + features));
        }
    }

    /**
     * Throws a located error unless {@code cpu} and {@code features} are in {@code triple}'s tables; for
     * GPU targets, whose chips LLVM only warns about and which need no probe.
     */
    public static void checkKnown(String triple, String cpu, String features, Location where) {
        if ((cpu == null || cpu.equals("native")) && (features == null || features.isEmpty())) {
            return;
        }
        Table t = TABLES.computeIfAbsent(triple, k -> read(k, where));
        if (cpu != null && !cpu.equals("native") && !t.cpus().contains(cpu)) {
            throw new MgpuException(where, "Invalid CPU (must be one LLVM knows for " + triple + ", such as the nearest, "
                    + String.join(", ", dev.mgpu.ir.Spelling.nearest(cpu, t.cpus(), 6)) + "): " + cpu);
        }
        if (features != null && !features.isEmpty()) {
            for (String f : features.split(",", -1)) {
                String name = f.length() > 1 && (f.charAt(0) == '+' || f.charAt(0) == '-') ? f.substring(1) : "";
                if (!t.features().contains(name)) {
                    throw new MgpuException(where, "Invalid CPU feature (must be +NAME or -NAME of a feature LLVM"
                            + " knows for " + triple + ", such as +" + String.join(", +", first(t.features(), 4))
                            + "): " + f);
                }
            }
        }
    }

    /**
     * Generates code for an empty function with these options in llc, where a fatal error ends llc and not
     * this process; returns llc's error when it fails, else "". A CPU that lacks what the triple needs
     * (an i386 CPU for x86_64, or {@code -64bit}) passes the tables and is caught here.
     */
    private static String probe(String triple, String cpu, String features, Location where) {
        List<String> cmd = new ArrayList<>(List.of("-mtriple=" + triple, "-filetype=obj", "-o", "/dev/null"));
        if (cpu != null) {
            cmd.add("-mcpu=" + Targets.resolveCpu(cpu));
        }
        if (features != null) {
            cmd.add("-mattr=" + features);
        }
        Run r = llc(cmd, "define void @f() {\n  ret void\n}\n", where);
        if (r.exit() == 0) {
            return "";
        }
        String[] lines = r.output().strip().split("\n");
        for (String line : lines) {
            int at = line.indexOf("LLVM ERROR: ");
            if (at >= 0) {
                return line.substring(at + "LLVM ERROR: ".length()).strip();
            }
        }
        return lines[0].strip();
    }

    private record Run(int exit, String output) {
    }

    private static Run llc(List<String> args, String input, Location where) {
        try {
            ProcessBuilder pb = ArtifactTools.tool("llc").command(args).redirectErrorStream(true);
            Process p = pb.start();
            try (java.io.OutputStream in = p.getOutputStream()) {
                in.write(input.getBytes(StandardCharsets.UTF_8));
            }
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("llc did not finish");
            }
            return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new MgpuException(where, "Invalid CPU or CPU features (must be checkable against LLVM's tables,"
                    + " which come from its llc): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MgpuException(where, "Invalid CPU or CPU features (must be checkable): interrupted");
        }
    }

    /** The CPUs (chips, for a GPU) of {@code triple}'s table, in their order there. */
    public static List<String> cpus(String triple, Location where) {
        return List.copyOf(TABLES.computeIfAbsent(triple, k -> read(k, where)).cpus());
    }

    private static List<String> first(Set<String> s, int n) {
        List<String> out = new ArrayList<>();
        for (String x : s) {
            if (out.size() == n) {
                break;
            }
            out.add(x);
        }
        return out;
    }

    /**
     * The GPU triples whose tables ship as resources ({@code cpus-TRIPLE.txt}, what the artifact's llc prints
     * for {@code -mcpu=help}; {@code TargetCpusTest} checks they are the same): a kernel compilation then
     * starts no process for them.
     */
    public static final List<String> BUNDLED = List.of("nvptx64-nvidia-cuda", "amdgcn-amd-amdhsa");

    /** The resource, beside this class, that holds {@code triple}'s table. */
    static String resource(String triple) {
        return "cpus-" + triple + ".txt";
    }

    /** What llc prints for {@code -mtriple=triple -mcpu=help}. */
    public static String help(String triple, Location where) {
        if (BUNDLED.contains(triple)) {
            try (java.io.InputStream in = TargetCpus.class.getResourceAsStream(resource(triple))) {
                if (in != null) {
                    return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                }
            } catch (java.io.IOException e) {
                // Fall back to asking llc.
            }
        }
        return llc(List.of("-mtriple=" + triple, "-mcpu=help"), "", where).output();
    }

    /** What the artifact's llc prints for {@code -mtriple=triple -mcpu=help}, asked now. */
    public static String helpFromLlc(String triple, Location where) {
        return llc(List.of("-mtriple=" + triple, "-mcpu=help"), "", where).output();
    }

    private static Table read(String triple, Location where) {
        String text = help(triple, where);
        Set<String> cpus = new TreeSet<>();
        Set<String> features = new TreeSet<>();
        Set<String> into = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("Available CPUs")) {
                into = cpus;
            } else if (line.startsWith("Available features")) {
                into = features;
            } else if (into != null && line.startsWith("  ")) {
                String name = line.strip();
                int end = name.indexOf(' ');
                into.add(end < 0 ? name : name.substring(0, end));
            } else if (into == features && !line.isBlank() && !line.startsWith(" ")) {
                into = null;
            }
        }
        if (cpus.isEmpty()) {
            throw new MgpuException(where, "Invalid CPU or CPU features (must be checkable against LLVM's tables):"
                    + " llc printed none for " + triple);
        }
        return new Table(cpus, features);
    }
}
