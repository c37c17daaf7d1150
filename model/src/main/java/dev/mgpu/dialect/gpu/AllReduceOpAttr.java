package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.DialectAttribute;
import java.util.Objects;

/**
 * {@code #gpu<all_reduce_op add|mul|...>}: how a {@link SubgroupReduceOp} combines its lanes' values.
 *
 * @param op one of {@link SubgroupReduceOp#OPS}
 */
public record AllReduceOpAttr(String op) implements DialectAttribute {
    @Override
    public void print(AsmOutput out) {
        out.write("#gpu<all_reduce_op ").write(op).write('>');
    }

    @Override
    public String toString() {
        return AsmOutput.render(this);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AllReduceOpAttr other && Objects.equals(op, other.op);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(op);
    }
}
