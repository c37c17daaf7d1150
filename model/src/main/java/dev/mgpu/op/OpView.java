package dev.mgpu.op;

import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import java.util.Objects;

/** A typed view of a generic {@link Operation}; each op class of a dialect extends it. */
public abstract class OpView {
    protected final Operation op;

    protected OpView(Operation op, String expectedName) {
        this.op = Objects.requireNonNull(op, "op");
        if (!op.name().equals(expectedName)) {
            throw new IllegalArgumentException("Invalid op (must be " + expectedName + "): " + op.name());
        }
    }

    /** The underlying operation. */
    public Operation op() {
        return op;
    }

    public Location location() {
        return op.location();
    }

    @Override
    public String toString() {
        return op.toString();
    }
}
