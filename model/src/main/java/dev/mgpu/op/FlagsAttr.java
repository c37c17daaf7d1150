package dev.mgpu.op;

import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.DialectAttribute;
import dev.mgpu.text.AsmParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A dialect attribute that is a set of named flags, {@code #dialect.name<flag, ...>}, such as
 * {@code #arith.fastmath<nnan,ninf>} or {@code #arith.overflow<nsw, nuw>}; the empty set prints as
 * {@code none}. The flags are kept in the order {@code known} lists them, so equal sets are equal; where a
 * flag {@code fast} stands for all the others, a set with all of them is {@code fast} alone.
 *
 * @param name the attribute's name without {@code #}, such as {@code arith.fastmath}
 * @param flags the flags that are set
 */
public record FlagsAttr(String name, List<String> flags) implements DialectAttribute {
    /** The flag that stands for all the others of its attribute. */
    private static final String FAST = "fast";

    /**
     * Copies {@code flags}.
     *
     * @throws NullPointerException if {@code flags} or one of its elements is null
     * @param name the attribute's name without {@code #}, such as {@code arith.fastmath}
     * @param flags the flags that are set
     */
    public FlagsAttr {
        flags = List.copyOf(flags);
    }

    /**
     * Whether {@code flag} is set.
     *
     * @param flag a flag's name
     * @return true when {@code flag} is in {@link #flags()}
     */
    public boolean has(String flag) {
        return flags.contains(flag);
    }

    /**
     * Parses {@code <flag, ...>} (or {@code <none>}) after the attribute's name; each flag must be one of
     * {@code known}, whose order the result keeps.
     *
     * @param p the parser, positioned just after the name
     * @param name the attribute's name without {@code #}
     * @param known every flag the attribute can have, in canonical order
     * @return the parsed attribute
     * @throws dev.mgpu.ir.MgpuException if a flag is not one of {@code known}
     */
    public static FlagsAttr parse(AsmParser p, String name, List<String> known) {
        p.expectPunct('<');
        List<String> seen = new ArrayList<>();
        do {
            int off = p.offset();
            String f = p.keyword();
            if (f.equals("none")) {
                continue;
            }
            if (!known.contains(f)) {
                throw p.errorAt(off, "Invalid flag of #" + name + " (must be none or one of " + String.join(", ", known)
                        + "): " + f);
            }
            seen.add(f);
        } while (p.optionalPunct(','));
        p.expectPunct('>');
        List<String> ordered = new ArrayList<>();
        for (String k : known) {
            if (seen.contains(k)) {
                ordered.add(k);
            }
        }
        if (known.contains(FAST) && (ordered.contains(FAST) || ordered.size() == known.size() - 1)) {
            return new FlagsAttr(name, List.of(FAST));
        }
        return new FlagsAttr(name, ordered);
    }

    /**
     * {@code flag, ...} or {@code none}, as the custom syntax of ops writes them inside {@code <...>}.
     *
     * @return the flags joined by {@code ", "} (by {@code ","} for {@code arith.fastmath}, as upstream prints
     *     that one), or {@code none} when there are none
     */
    public String body() {
        return flags.isEmpty() ? "none" : String.join(name.equals("arith.fastmath") ? "," : ", ", flags);
    }

    @Override
    public void print(AsmOutput out) {
        out.write("#" + name + "<").write(body()).write('>');
    }

    @Override
    public String toString() {
        return "#" + name + "<" + body() + ">";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FlagsAttr other && Objects.equals(name, other.name) && Objects.equals(flags, other.flags);
    }

    @Override
    public int hashCode() {
        return 31 * Objects.hashCode(name) + Objects.hashCode(flags);
    }
}
