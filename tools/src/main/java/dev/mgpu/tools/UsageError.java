package dev.mgpu.tools;

/** A command line that asks for something the tool cannot do; its message says what and why. */
final class UsageError extends Exception {
    private static final long serialVersionUID = 1L;

    UsageError(String m) {
        super(m);
    }
}
