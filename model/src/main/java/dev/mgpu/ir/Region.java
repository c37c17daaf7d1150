package dev.mgpu.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** An ordered list of blocks owned by one operation; created detached, then given to its op. */
public final class Region {
    private final List<Block> blocks = new ArrayList<>();
    private Operation parent;

    public List<Block> blocks() {
        return Collections.unmodifiableList(blocks);
    }

    public boolean isEmpty() {
        return blocks.isEmpty();
    }

    public Block entry() {
        return blocks.isEmpty() ? null : blocks.get(0);
    }

    public Block append(Block b) {
        if (b.parent() != null) {
            throw new IllegalStateException("block already belongs to a region");
        }
        b.setParent(this);
        blocks.add(b);
        return b;
    }

    public Operation parent() {
        return parent;
    }

    void setParent(Operation op) {
        this.parent = op;
    }
}
