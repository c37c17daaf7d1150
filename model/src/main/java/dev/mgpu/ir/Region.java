package dev.mgpu.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** An ordered list of blocks owned by one operation; created detached, then given to its op. */
public final class Region {
    private final List<Block> blocks = new ArrayList<>();
    private Operation parent;

    /**
     * Returns the blocks in order, the entry block first.
     *
     * @return an unmodifiable view of the blocks
     */
    public List<Block> blocks() {
        return Collections.unmodifiableList(blocks);
    }

    /**
     * Removes every block from this region and returns them, detached and in order, to be appended to
     * another region (moving a body from one op to another).
     *
     * @return the blocks that were in this region
     */
    public List<Block> takeBlocks() {
        List<Block> out = new ArrayList<>(blocks);
        for (Block b : out) {
            b.setParent(null);
        }
        blocks.clear();
        return out;
    }

    /**
     * Returns whether the region has no blocks.
     *
     * @return true when the region has no blocks
     */
    public boolean isEmpty() {
        return blocks.isEmpty();
    }

    /**
     * Returns the entry block.
     *
     * @return the first block, or null when the region is empty
     */
    public Block entry() {
        return blocks.isEmpty() ? null : blocks.get(0);
    }

    /**
     * Appends a detached block to the end of this region and makes this region its parent.
     *
     * @param b the block to append
     * @return {@code b}
     * @throws IllegalStateException if {@code b} already belongs to a region
     */
    public Block append(Block b) {
        if (b.parent() != null) {
            throw new IllegalStateException("block already belongs to a region");
        }
        b.setParent(this);
        blocks.add(b);
        return b;
    }

    /**
     * Returns the operation that owns this region.
     *
     * @return the owning operation, or null while the region is detached
     */
    public Operation parent() {
        return parent;
    }

    void setParent(Operation op) {
        this.parent = op;
    }
}
