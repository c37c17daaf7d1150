package dev.mgpu.dialect.builtin;

import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.DialectAttribute;
import java.util.Objects;

/**
 * {@code distinct[id]<referenced>}: an attribute that is unique by its identifier, as debug-info
 * compile units and subprograms use. The identifier is kept as written, so that equal text gives an
 * equal attribute.
 *
 * @param id the identifier within the file
 * @param referenced the wrapped attribute, or null for {@code distinct[id]<>}
 */
public record DistinctAttr(long id, Attribute referenced) implements DialectAttribute {
    @Override
    public void print(AsmOutput out) {
        out.write("distinct[").write(id).write("]<");
        if (referenced != null) {
            out.attr(referenced);
        }
        out.write('>');
    }

    @Override
    public String toString() {
        return AsmOutput.render(this);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DistinctAttr other && id == other.id && Objects.equals(referenced, other.referenced);
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(id) + Objects.hashCode(referenced);
    }
}
