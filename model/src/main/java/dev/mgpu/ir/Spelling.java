package dev.mgpu.ir;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** Names close to a misspelt one, for the suggestions of error messages. */
public final class Spelling {
    private Spelling() {
    }

    /**
     * The {@code n} names of {@code known} nearest to {@code name} by edit distance, nearest first; names
     * at the same distance keep the order of {@code known}.
     *
     * @param name the misspelt name
     * @param known the names there are
     * @param n how many to return at most
     * @return the nearest names
     */
    public static List<String> nearest(String name, Collection<String> known, int n) {
        List<String> all = new ArrayList<>(known);
        List<Integer> d = new ArrayList<>();
        for (String k : all) {
            d.add(distance(name, k));
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingInt(d::get));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.min(n, order.size()); i++) {
            out.add(all.get(order.get(i)));
        }
        return out;
    }

    /**
     * Levenshtein distance: insertions, deletions and substitutions.
     *
     * @param a one name
     * @param b another
     * @return the fewest edits that make one the other
     */
    public static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
