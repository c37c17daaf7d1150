package dev.mgpu.op;

import dev.mgpu.ir.Attribute;
import dev.mgpu.text.AsmParser;

/**
 * The parser of one dialect attribute, {@code #dialect.name...}, registered by its dialect. The
 * attribute prints itself ({@link dev.mgpu.ir.DialectAttribute#print}); its class holds both halves.
 *
 * @param name the attribute's name without {@code #}, such as {@code gpu.address_space}
 * @param parser parses what follows the name
 */
public record AttrDef(String name, Parser parser) {
    /** Parses what follows the attribute's name, which starts at {@code nameOffset}. */
    @FunctionalInterface
    public interface Parser {
        /**
         * @param p the parser, positioned just after the name
         * @param nameOffset the offset of the attribute's name in the input, for errors
         * @return the parsed attribute
         */
        Attribute parse(AsmParser p, int nameOffset);
    }
}
