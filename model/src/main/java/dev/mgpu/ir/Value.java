package dev.mgpu.ir;

import java.util.Objects;

/** An SSA value: the result of an operation or an argument of a block. */
public abstract sealed class Value permits Value.OpResult, Value.BlockArgument {
    private final Type type;

    Value(Type type) {
        this.type = Objects.requireNonNull(type, "type");
    }

    public Type type() {
        return type;
    }

    /** The {@code index}-th result of {@code owner}. */
    public static final class OpResult extends Value {
        private final Operation owner;
        private final int index;

        OpResult(Type type, Operation owner, int index) {
            super(type);
            this.owner = owner;
            this.index = index;
        }

        public Operation owner() {
            return owner;
        }

        public int index() {
            return index;
        }

        @Override
        public String toString() {
            return "result #" + index + " of " + owner.name();
        }
    }

    /** The {@code index}-th argument of {@code owner}. */
    public static final class BlockArgument extends Value {
        private final Block owner;
        private final int index;
        private final Location location;

        BlockArgument(Type type, Block owner, int index, Location location) {
            super(type);
            this.owner = owner;
            this.index = index;
            this.location = location;
        }

        public Block owner() {
            return owner;
        }

        public int index() {
            return index;
        }

        public Location location() {
            return location;
        }

        @Override
        public String toString() {
            return "block argument #" + index;
        }
    }
}
