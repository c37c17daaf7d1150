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

    /** Creates an empty, detached block at an unknown location. */
    public Block() {
        this(Location.UNKNOWN);
    }

    /**
     * Creates an empty, detached block.
     *
     * @param location where the block is, also the default location of its arguments
     */
    public Block(Location location) {
        this.location = location;
    }

    /**
     * Returns where the block is.
     *
     * @return the block's location
     */
    public Location location() {
        return location;
    }

    /**
     * Sets where the block is.
     *
     * @param location the new location
     */
    public void setLocation(Location location) {
        this.location = location;
    }

    /**
     * Appends an argument.
     *
     * @param type the argument's type
     * @param loc where the argument is declared
     * @return the new argument
     */
    public Value.BlockArgument addArgument(Type type, Location loc) {
        Value.BlockArgument a = new Value.BlockArgument(type, this, arguments.size(), loc);
        arguments.add(a);
        return a;
    }

    /**
     * Appends an argument at the block's location.
     *
     * @param type the argument's type
     * @return the new argument
     */
    public Value.BlockArgument addArgument(Type type) {
        return addArgument(type, location);
    }

    /**
     * Returns the arguments in order.
     *
     * @return an unmodifiable view of the arguments
     */
    public List<Value.BlockArgument> arguments() {
        return Collections.unmodifiableList(arguments);
    }

    /**
     * Returns the {@code i}-th argument.
     *
     * @param i the index, from 0
     * @return the argument
     * @throws IndexOutOfBoundsException if there is no such argument
     */
    public Value.BlockArgument argument(int i) {
        return arguments.get(i);
    }

    /**
     * Returns the operations in order.
     *
     * @return an unmodifiable view of the operations
     */
    public List<Operation> operations() {
        return Collections.unmodifiableList(operations);
    }

    /**
     * Appends {@code op}, which must not belong to another block.
     *
     * @param op the detached operation to append
     * @return {@code op}
     * @throws IllegalStateException if {@code op} already belongs to a block
     */
    public Operation append(Operation op) {
        if (op.parent() != null) {
            throw new IllegalStateException("operation " + op.name() + " already belongs to a block");
        }
        op.setParent(this);
        operations.add(op);
        return op;
    }

    /**
     * Puts {@code op}, which must be detached, right after {@code anchor}.
     *
     * @param anchor an operation of this block
     * @param op the detached operation to insert
     * @return {@code op}
     * @throws IllegalArgumentException if {@code anchor} is not in this block
     * @throws IllegalStateException if {@code op} already belongs to a block
     */
    public Operation insertAfter(Operation anchor, Operation op) {
        int i = operations.indexOf(anchor);
        if (i < 0 || anchor.parent() != this) {
            throw new IllegalArgumentException("operation " + anchor.name() + " is not in this block");
        }
        if (op.parent() != null) {
            throw new IllegalStateException("operation " + op.name() + " already belongs to a block");
        }
        op.setParent(this);
        operations.add(i + 1, op);
        return op;
    }

    /**
     * Detaches every operation of this block, which is left empty, and returns them in order.
     *
     * @return the operations, each now without a block
     */
    public List<Operation> takeOperations() {
        List<Operation> out = new ArrayList<>(operations);
        for (Operation op : out) {
            op.setParent(null);
        }
        operations.clear();
        return out;
    }

    /**
     * Puts {@code replacement}, which must be detached, where {@code old} is; {@code old} becomes detached.
     * Values of {@code old} that are still used keep pointing to it, so it should have none in use.
     *
     * @param old an operation of this block
     * @param replacement the detached operation to put in its place
     * @throws IllegalArgumentException if {@code old} is not in this block
     * @throws IllegalStateException if {@code replacement} already belongs to a block
     */
    public void replace(Operation old, Operation replacement) {
        int i = operations.indexOf(old);
        if (i < 0 || old.parent() != this) {
            throw new IllegalArgumentException("operation " + old.name() + " is not in this block");
        }
        if (replacement.parent() != null) {
            throw new IllegalStateException("operation " + replacement.name() + " already belongs to a block");
        }
        old.setParent(null);
        replacement.setParent(this);
        operations.set(i, replacement);
    }

    /**
     * The last operation, or null when the block is empty.
     *
     * @return the last operation, or null
     */
    public Operation terminator() {
        return operations.isEmpty() ? null : operations.get(operations.size() - 1);
    }

    /**
     * Returns the region that holds this block.
     *
     * @return the region, or null while the block is detached
     */
    public Region parent() {
        return parent;
    }

    void setParent(Region r) {
        this.parent = r;
    }

    /**
     * The operation whose region holds this block, or null.
     *
     * @return the parent region's operation, or null when the block is detached
     */
    public Operation parentOp() {
        return parent == null ? null : parent.parent();
    }
}
