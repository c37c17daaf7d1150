package dev.mgpu.ir;

/** One message about the input: severity, where, and what. */
public record Diagnostic(Severity severity, Location location, String message) {

    /** How bad a diagnostic is. */
    public enum Severity {
        ERROR("error"), WARNING("warning"), NOTE("note"), REMARK("remark");

        private final String label;

        Severity(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public static Diagnostic error(Location location, String message) {
        return new Diagnostic(Severity.ERROR, location, message);
    }

    /** Renders as {@code file:line:col: error: message}. */
    @Override
    public String toString() {
        return location + ": " + severity.label() + ": " + message;
    }
}
