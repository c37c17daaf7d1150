package dev.mgpu.ir;

import java.util.List;

/** Raised when input is rejected; carries every diagnostic, each with its location. */
public class MgpuException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient List<Diagnostic> diagnostics;

    public MgpuException(List<Diagnostic> diagnostics) {
        super(render(diagnostics));
        this.diagnostics = List.copyOf(diagnostics);
    }

    public MgpuException(Location location, String message) {
        this(List.of(Diagnostic.error(location, message)));
    }

    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    /** The location of the first diagnostic. */
    public Location location() {
        return diagnostics.get(0).location();
    }

    private static String render(List<Diagnostic> diagnostics) {
        StringBuilder sb = new StringBuilder();
        for (Diagnostic d : diagnostics) {
            if (sb.length() > 0) {
                sb.append('\n');
            }
            sb.append(d);
        }
        return sb.toString();
    }
}
