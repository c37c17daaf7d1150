package dev.mgpu.dialect.llvm;

import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.DialectAttribute;
import dev.mgpu.text.AsmParser;
import java.util.Map;
import java.util.Objects;

/**
 * {@code #llvm.cconv<ccc>}: the calling convention of an {@code llvm.func}.
 *
 * @param cconv the convention's name, such as {@code ccc} or {@code fastcc}
 */
public record CConvAttr(String cconv) implements DialectAttribute {
    /** The attribute's name. */
    public static final String NAME = "llvm.cconv";

    /** The calling conventions mgpu translates, with LLVM's numbers for them. */
    public static final Map<String, Integer> CONVENTIONS = Map.of("ccc", 0, "fastcc", 8, "coldcc", 9,
            "x86_stdcallcc", 64, "x86_fastcallcc", 65, "x86_64_sysvcc", 78, "win64cc", 79, "ptx_kernel", 71,
            "ptx_device", 72, "amdgpu_kernel", 91);

    /** The default, C's convention. */
    public static final CConvAttr C = new CConvAttr("ccc");

    /**
     * Parses {@code <name>} after the attribute's name.
     *
     * @param p the parser, positioned just after the name
     * @param nameOffset the offset of the attribute's name (unused: an unknown name is reported where it is)
     * @return the parsed attribute
     * @throws dev.mgpu.ir.MgpuException if the name is not one of {@link #CONVENTIONS}
     */
    public static CConvAttr parse(AsmParser p, int nameOffset) {
        p.expectPunct('<');
        int off = p.offset();
        String k = p.keyword();
        if (!CONVENTIONS.containsKey(k)) {
            throw p.errorAt(off, "Invalid calling convention (must be one of "
                    + String.join(", ", new java.util.TreeSet<>(CONVENTIONS.keySet())) + "): " + k);
        }
        p.expectPunct('>');
        return new CConvAttr(k);
    }

    /**
     * LLVM's number for the convention.
     *
     * @return the number from {@link #CONVENTIONS}
     */
    public int number() {
        return CONVENTIONS.get(cconv);
    }

    @Override
    public void print(AsmOutput out) {
        out.write("#" + NAME + "<").write(cconv).write('>');
    }

    @Override
    public String toString() {
        return "#" + NAME + "<" + cconv + ">";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CConvAttr other && Objects.equals(cconv, other.cconv);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(cconv);
    }
}
