package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.DialectAttribute;

/**
 * {@code #gpu<dim x|y|z>}: the dimension a {@link DimensionOp} reads, as its generic form writes it.
 *
 * @param dimension 0, 1 or 2 for x, y or z
 */
public record DimensionAttr(int dimension) implements DialectAttribute {
    @Override
    public void print(AsmOutput out) {
        out.write("#gpu<dim ").write(DimensionOp.DIMENSIONS.get(dimension)).write('>');
    }

    @Override
    public String toString() {
        return AsmOutput.render(this);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DimensionAttr other && dimension == other.dimension;
    }

    @Override
    public int hashCode() {
        return dimension;
    }
}
