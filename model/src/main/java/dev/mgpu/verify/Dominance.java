package dev.mgpu.verify;

import dev.mgpu.ir.Block;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which blocks of a region dominate which: block A dominates B when every path from the region's entry to
 * B passes through A. Computed once per region, by the iterative data-flow method, on the successors the
 * blocks' terminators name; regions here have few blocks.
 */
final class Dominance {
    private final Map<Region, Map<Block, BitSet>> regions = new IdentityHashMap<>();

    /** Whether {@code a} dominates {@code b}; both are blocks of {@code r}. */
    boolean dominates(Region r, Block a, Block b) {
        Map<Block, BitSet> dom = regions.computeIfAbsent(r, Dominance::compute);
        BitSet d = dom.get(b);
        List<Block> blocks = r.blocks();
        return d != null && d.get(blocks.indexOf(a));
    }

    private static Map<Block, BitSet> compute(Region r) {
        List<Block> blocks = r.blocks();
        int n = blocks.size();
        Map<Block, Integer> index = new IdentityHashMap<>();
        for (int i = 0; i < n; i++) {
            index.put(blocks.get(i), i);
        }
        List<List<Integer>> preds = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            preds.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            Operation term = blocks.get(i).terminator();
            if (term != null) {
                for (Block s : term.successors()) {
                    Integer j = index.get(s);
                    if (j != null) {
                        preds.get(j).add(i);
                    }
                }
            }
        }
        BitSet[] dom = new BitSet[n];
        for (int i = 0; i < n; i++) {
            dom[i] = new BitSet(n);
            if (i == 0) {
                dom[i].set(0);
            } else {
                dom[i].set(0, n);
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = 1; i < n; i++) {
                BitSet d = new BitSet(n);
                boolean first = true;
                for (int p : preds.get(i)) {
                    if (first) {
                        d.or(dom[p]);
                        first = false;
                    } else {
                        d.and(dom[p]);
                    }
                }
                // An unreachable block is dominated by every block, so nothing it uses is an error.
                if (first) {
                    d.set(0, n);
                }
                d.set(i);
                if (!d.equals(dom[i])) {
                    dom[i] = d;
                    changed = true;
                }
            }
        }
        Map<Block, BitSet> out = new IdentityHashMap<>();
        for (int i = 0; i < n; i++) {
            out.put(blocks.get(i), dom[i]);
        }
        return out;
    }
}
