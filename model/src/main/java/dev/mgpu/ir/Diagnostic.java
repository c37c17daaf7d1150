package dev.mgpu.ir;

/**
 * One message about the input: severity, where, and what.
 *
 * @param severity how bad it is
 * @param location where it is
 * @param message what it says
 */
public record Diagnostic(Severity severity, Location location, String message) {

    /** How bad a diagnostic is. */
    public enum Severity {
        /** A problem that makes the input invalid. */
        ERROR("error"),
        /** A problem that does not make the input invalid. */
        WARNING("warning"),
        /** More about another diagnostic. */
        NOTE("note"),
        /** Information, not a problem. */
        REMARK("remark");

        private final String label;

        Severity(String label) {
            this.label = label;
        }

        /**
         * Returns the word that names the severity in messages.
         *
         * @return the label, such as {@code error}
         */
        public String label() {
            return label;
        }
    }

    /**
     * Creates an error.
     *
     * @param location where the error is
     * @param message what is wrong
     * @return a diagnostic of severity {@link Severity#ERROR}
     */
    public static Diagnostic error(Location location, String message) {
        return new Diagnostic(Severity.ERROR, location, message);
    }

    /** Renders as {@code file:line:col: error: message}. */
    @Override
    public String toString() {
        return location + ": " + severity.label() + ": " + message;
    }
}
