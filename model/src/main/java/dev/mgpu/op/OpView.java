package dev.mgpu.op;

import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import java.util.Objects;

/** A typed view of a generic {@link Operation}; each op class of a dialect extends it. */
public abstract class OpView {
    /** The operation this view wraps. */
    protected final Operation op;

    /**
     * Wraps {@code op}, which must be named {@code expectedName}.
     *
     * @param op the operation
     * @param expectedName the name the op must have
     * @throws NullPointerException if {@code op} is null
     * @throws IllegalArgumentException if {@code op} has another name
     */
    protected OpView(Operation op, String expectedName) {
        this.op = Objects.requireNonNull(op, "op");
        if (!op.name().equals(expectedName)) {
            throw new IllegalArgumentException("Invalid op (must be " + expectedName + "): " + op.name());
        }
    }

    /**
     * The underlying operation.
     *
     * @return the operation this view wraps
     */
    public Operation op() {
        return op;
    }

    /**
     * Returns the location of the underlying operation.
     *
     * @return the operation's location
     */
    public Location location() {
        return op.location();
    }

    @Override
    public String toString() {
        return op.toString();
    }
}
