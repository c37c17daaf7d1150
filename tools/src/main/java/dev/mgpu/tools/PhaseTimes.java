package dev.mgpu.tools;

import dev.mgpu.codegen.PhaseListener;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The wall time of each phase of a run, summed over the parts of a split input, printed as one table at
 * the end in the manner of MLIR's {@code -mlir-timing}: phases in the order they first ran, each with its
 * share of the total.
 */
final class PhaseTimes implements PhaseListener {
    private final Map<String, Long> nanos = new LinkedHashMap<>();

    @Override
    public void phaseDone(String phase, long n) {
        nanos.merge(phase, n, Long::sum);
    }

    /** Times {@code phase} from {@code start} (a {@link System#nanoTime()}) to now. */
    void since(String phase, long start) {
        phaseDone(phase, System.nanoTime() - start);
    }

    boolean isEmpty() {
        return nanos.isEmpty();
    }

    /** Prints the table; the rest of {@code totalNanos} that no phase accounts for is shown as "other". */
    void print(PrintStream out, long totalNanos) {
        long accounted = nanos.values().stream().mapToLong(Long::longValue).sum();
        String rule = "===" + "-".repeat(73) + "===";
        StringBuilder b = new StringBuilder();
        b.append(rule).append('\n');
        b.append(String.format(Locale.ROOT, "%50s%n", "mgpu execution timing report"));
        b.append(rule).append('\n');
        b.append(String.format(Locale.ROOT, "  Total Execution Time: %.4f seconds%n%n", totalNanos / 1e9));
        b.append("  ----Wall Time----  ----Name----\n");
        for (Map.Entry<String, Long> e : nanos.entrySet()) {
            row(b, e.getValue(), totalNanos, e.getKey());
        }
        row(b, Math.max(0, totalNanos - accounted), totalNanos, "other (JVM start-up, options, clean-up)");
        row(b, totalNanos, totalNanos, "Total");
        out.print(b);
        out.flush();
    }

    private static void row(StringBuilder b, long n, long total, String name) {
        double share = total == 0 ? 0 : 100.0 * n / total;
        b.append(String.format(Locale.ROOT, "  %8.4f (%5.1f%%)  %s%n", n / 1e9, share, name));
    }
}
