package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.DialectAttribute;
import dev.mgpu.text.AsmParser;
import java.util.Objects;

/**
 * {@code #gpu.address_space<global|workgroup|private>}.
 *
 * @param space the address space: {@code global}, {@code workgroup} or {@code private}
 */
public record AddressSpaceAttr(String space) implements DialectAttribute {
    /** The attribute's name. */
    public static final String NAME = "gpu.address_space";

    /**
     * Parses {@code <space>} after the name, which starts at {@code nameOffset}.
     *
     * @param p the parser, positioned just after the name
     * @param nameOffset the offset of the attribute's name, where an unknown space is reported
     * @return the parsed attribute
     * @throws dev.mgpu.ir.MgpuException if the space is not {@code global}, {@code workgroup} or {@code private}
     */
    public static AddressSpaceAttr parse(AsmParser p, int nameOffset) {
        p.expectPunct('<');
        String s = p.keyword();
        if (!s.equals("global") && !s.equals("workgroup") && !s.equals("private")) {
            throw p.errorAt(nameOffset, "Invalid address space (must be global, workgroup or private): " + s);
        }
        p.expectPunct('>');
        return new AddressSpaceAttr(s);
    }

    @Override
    public void print(AsmOutput out) {
        out.write("#" + NAME + "<").write(space).write('>');
    }

    @Override
    public String toString() {
        return "#" + NAME + "<" + space + ">";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AddressSpaceAttr other && Objects.equals(space, other.space);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(space);
    }
}
