package dev.mgpu.op;

import dev.mgpu.ir.Type;
import dev.mgpu.text.AsmParser;

/**
 * The parser of one dialect type, {@code !dialect.name...}, registered by its dialect.
 *
 * @param name the type's name without {@code !}, such as {@code llvm.ptr}
 * @param parser parses what follows the name
 */
public record TypeDef(String name, Parser parser) {
    /** Parses what follows the type's name, which starts at {@code nameOffset}. */
    @FunctionalInterface
    public interface Parser {
        /**
         * @param p the parser, positioned just after the name
         * @param nameOffset the offset of the type's name in the input, for errors
         * @return the parsed type
         */
        Type parse(AsmParser p, int nameOffset);
    }
}
