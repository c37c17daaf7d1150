package dev.mgpu.tools;

import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads {@code --embed NAME=FILE} options into blobs by name. */
final class Embeds {
    private Embeds() {
    }

    /** The files that {@code NAME=FILE} specs name, in order (for a dependency file). */
    static List<String> files(List<String> specs) {
        // A loop, not a stream: every run asks, and a run's first stream costs some 1 ms of its start.
        List<String> files = new ArrayList<>(specs.size());
        for (String s : specs) {
            files.add(s.substring(s.indexOf('=') + 1));
        }
        return files;
    }

    static Map<String, byte[]> parse(List<String> specs) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        for (String s : specs) {
            int eq = s.indexOf('=');
            if (eq <= 0 || eq == s.length() - 1) {
                throw new MgpuException(Location.UNKNOWN, "Invalid --embed (must be NAME=FILE): " + s);
            }
            try {
                m.put(s.substring(0, eq), dev.mgpu.mlir.MlirParser.readFile(Path.of(s.substring(eq + 1))));
            } catch (IOException e) {
                throw new MgpuException(new Location.Named(s.substring(eq + 1), Location.UNKNOWN),
                        "Invalid --embed file (must be readable): " + e.getMessage());
            }
        }
        return m;
    }
}
