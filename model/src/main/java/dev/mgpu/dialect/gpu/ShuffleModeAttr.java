package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.DialectAttribute;
import java.util.Objects;

/**
 * {@code #gpu<shuffle_mode xor|up|down|idx>}: how a {@link ShuffleOp} picks the lane it reads from.
 *
 * @param mode one of {@link ShuffleOp#MODES}
 */
public record ShuffleModeAttr(String mode) implements DialectAttribute {
    @Override
    public void print(AsmOutput out) {
        out.write("#gpu<shuffle_mode ").write(mode).write('>');
    }

    @Override
    public String toString() {
        return AsmOutput.render(this);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ShuffleModeAttr other && Objects.equals(mode, other.mode);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(mode);
    }
}
