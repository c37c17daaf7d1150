package dev.mgpu.dialect.llvm;

import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.DialectAttribute;
import dev.mgpu.text.AsmParser;
import java.util.List;
import java.util.Objects;

/**
 * {@code #llvm.linkage<internal>}: how {@code llvm.func} states its linkage in the generic form.
 *
 * @param linkage the linkage keyword, one of {@link #LINKAGES}
 */
public record LinkageAttr(String linkage) implements DialectAttribute {
    /** The attribute's name. */
    public static final String NAME = "llvm.linkage";

    /** The linkage keywords, as LLVM names them. */
    public static final List<String> LINKAGES = List.of("private", "internal", "available_externally",
            "linkonce", "weak", "common", "appending", "extern_weak", "linkonce_odr", "weak_odr", "external");

    /**
     * Parses {@code <keyword>} after the name.
     *
     * @param p the parser, positioned just after the name
     * @param nameOffset the offset of the attribute's name (unused: an unknown keyword is reported where it is)
     * @return the parsed attribute
     * @throws dev.mgpu.ir.MgpuException if the keyword is not one of {@link #LINKAGES}
     */
    public static LinkageAttr parse(AsmParser p, int nameOffset) {
        p.expectPunct('<');
        int off = p.offset();
        String k = p.keyword();
        if (!LINKAGES.contains(k)) {
            throw p.errorAt(off, "Invalid linkage (must be one of " + String.join(", ", LINKAGES) + "): " + k);
        }
        p.expectPunct('>');
        return new LinkageAttr(k);
    }

    @Override
    public void print(AsmOutput out) {
        out.write("#" + NAME + "<").write(linkage).write('>');
    }

    @Override
    public String toString() {
        return "#" + NAME + "<" + linkage + ">";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LinkageAttr other && Objects.equals(linkage, other.linkage);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(linkage);
    }
}
