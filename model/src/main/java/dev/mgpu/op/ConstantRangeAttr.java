package dev.mgpu.op;

import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.DialectAttribute;
import dev.mgpu.ir.Type;
import dev.mgpu.text.AsmParser;
import java.util.Objects;

/**
 * {@code #llvm.constant_range<T, lo, hi>}: the values an integer can take, from {@code lo} up to but not
 * including {@code hi}; a hint, as the special-register ops and result attributes of lowered kernels carry it.
 *
 * @param type the integer type
 * @param lower the smallest value
 * @param upper one past the largest value
 */
public record ConstantRangeAttr(Type type, long lower, long upper) implements DialectAttribute {
    /** The attribute's name. */
    public static final String NAME = "llvm.constant_range";

    /**
     * Parses {@code <T, lo, hi>}, as after the attribute's name or the {@code range} keyword.
     *
     * @param p the parser, at {@code <}
     * @return the range
     */
    public static ConstantRangeAttr parseBody(AsmParser p) {
        p.expectPunct('<');
        Type t = p.type();
        p.expectPunct(',');
        long lo = p.integer();
        p.expectPunct(',');
        long hi = p.integer();
        p.expectPunct('>');
        return new ConstantRangeAttr(t, lo, hi);
    }

    /** {@return {@code <T, lo, hi>}, as written after the {@code range} keyword} */
    public String body() {
        return "<" + type + ", " + lower + ", " + upper + ">";
    }

    @Override
    public void print(AsmOutput out) {
        out.write("#" + NAME).write(body());
    }

    @Override
    public String toString() {
        return "#" + NAME + body();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConstantRangeAttr other && Objects.equals(type, other.type) && lower == other.lower
                && upper == other.upper;
    }

    @Override
    public int hashCode() {
        int h = Objects.hashCode(type);
        h = 31 * h + Long.hashCode(lower);
        return 31 * h + Long.hashCode(upper);
    }
}
