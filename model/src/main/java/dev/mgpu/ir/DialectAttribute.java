package dev.mgpu.ir;

/**
 * An attribute that a dialect defines, such as {@code #nvvm.target<...>} or {@code #gpu.object<...>}.
 * It writes its own text form ({@code #dialect.name<...>}); the dialect that defines it registers the
 * matching parser next to it, so that what it prints parses back to an equal attribute.
 */
public non-sealed interface DialectAttribute extends Attribute {
    /**
     * Writes the attribute's MLIR text, starting with {@code #}.
     *
     * @param out where the text goes
     */
    void print(AsmOutput out);
}
