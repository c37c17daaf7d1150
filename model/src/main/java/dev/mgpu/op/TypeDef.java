package dev.mgpu.op;

import dev.mgpu.ir.Type;
import dev.mgpu.text.AsmParser;

/** The parser of one dialect type, {@code !dialect.name...}, registered by its dialect. */
public record TypeDef(String name, Parser parser) {
    /** Parses what follows the type's name, which starts at {@code nameOffset}. */
    @FunctionalInterface
    public interface Parser {
        Type parse(AsmParser p, int nameOffset);
    }
}
