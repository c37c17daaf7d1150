package dev.mgpu.ir;

import java.util.List;

/** Raised when input is rejected; carries every diagnostic, each with its location. */
public class MgpuException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient List<Diagnostic> diagnostics;

    /**
     * Creates an exception that carries {@code diagnostics}; its message is their text, one a line.
     *
     * @param diagnostics the diagnostics, at least one, the first being the main error
     */
    public MgpuException(List<Diagnostic> diagnostics) {
        super(render(diagnostics));
        this.diagnostics = List.copyOf(diagnostics);
    }

    /**
     * Creates an exception that carries one error.
     *
     * @param location where the error is
     * @param message what is wrong
     */
    public MgpuException(Location location, String message) {
        this(List.of(Diagnostic.error(location, message)));
    }

    /**
     * Returns the diagnostics, in the order they were reported.
     *
     * @return an unmodifiable list of the diagnostics
     */
    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    /**
     * The location of the first diagnostic.
     *
     * @return the first diagnostic's location
     */
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
