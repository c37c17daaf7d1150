package dev.mgpu.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A list of operations with typed arguments; the last operation of a finished block is a terminator. */
public final class Block {
    private final List<Value.BlockArgument> arguments = new ArrayList<>();
    private final List<Operation> operations = new ArrayList<>();
    private Region parent;
    private Location location;

    public Block() {
        this(Location.UNKNOWN);
    }

    public Block(Location location) {
        this.location = location;
    }

    public Location location() {
        return location;
    }

    public void setLocation(Location location) {
        this.location = location;
    }

    public Value.BlockArgument addArgument(Type type, Location loc) {
        Value.BlockArgument a = new Value.BlockArgument(type, this, arguments.size(), loc);
        arguments.add(a);
        return a;
    }

    public Value.BlockArgument addArgument(Type type) {
        return addArgument(type, location);
    }

    public List<Value.BlockArgument> arguments() {
        return Collections.unmodifiableList(arguments);
    }

    public Value.BlockArgument argument(int i) {
        return arguments.get(i);
    }

    public List<Operation> operations() {
        return Collections.unmodifiableList(operations);
    }

    /** Appends {@code op}, which must not belong to another block. */
    public Operation append(Operation op) {
        if (op.parent() != null) {
            throw new IllegalStateException("operation " + op.name() + " already belongs to a block");
        }
        op.setParent(this);
        operations.add(op);
        return op;
    }

    /** The last operation, or null when the block is empty. */
    public Operation terminator() {
        return operations.isEmpty() ? null : operations.get(operations.size() - 1);
    }

    public Region parent() {
        return parent;
    }

    void setParent(Region r) {
        this.parent = r;
    }

    /** The operation whose region holds this block, or null. */
    public Operation parentOp() {
        return parent == null ? null : parent.parent();
    }
}
