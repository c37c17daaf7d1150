package dev.mgpu.ir;

import java.util.Objects;

/** An SSA value: the result of an operation or an argument of a block. */
public abstract sealed class Value permits Value.OpResult, Value.BlockArgument {
    private final Type type;

    Value(Type type) {
        this.type = Objects.requireNonNull(type, "type");
    }

    /**
     * Returns the value's type.
     *
     * @return the type, never null
     */
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

        /**
         * Returns the operation that defines this result.
         *
         * @return the owning operation
         */
        public Operation owner() {
            return owner;
        }

        /**
         * Returns this result's position among its owner's results.
         *
         * @return the index, from 0
         */
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

        /**
         * Returns the block this argument belongs to.
         *
         * @return the owning block
         */
        public Block owner() {
            return owner;
        }

        /**
         * Returns this argument's position among its block's arguments.
         *
         * @return the index, from 0
         */
        public int index() {
            return index;
        }

        /**
         * Returns where the argument was declared.
         *
         * @return the argument's location
         */
        public Location location() {
            return location;
        }

        @Override
        public String toString() {
            return "block argument #" + index;
        }
    }
}
