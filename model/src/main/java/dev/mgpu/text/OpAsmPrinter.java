package dev.mgpu.text;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.List;
import java.util.Set;

/**
 * What an op's custom syntax sees of the printer. The printer has already written the result names and
 * the op name; the op's printer writes the rest, starting with the space that separates it from the
 * name. Values and blocks print under the names the printer assigned; printing one it did not name is an
 * internal error.
 */
public interface OpAsmPrinter {
    /**
     * Writes text as is.
     *
     * @param s the text
     * @return this printer
     */
    OpAsmPrinter write(String s);

    /**
     * Writes one ASCII character.
     *
     * @param c the character
     * @return this printer
     */
    OpAsmPrinter write(char c);

    /**
     * Writes a type.
     *
     * @param t the type
     * @return this printer
     */
    OpAsmPrinter type(Type t);

    /**
     * Writes types separated by {@code ", "}.
     *
     * @param ts the types
     * @return this printer
     */
    OpAsmPrinter types(List<? extends Type> ts);

    /**
     * Writes an attribute.
     *
     * @param a the attribute
     * @return this printer
     */
    OpAsmPrinter attr(Attribute a);

    /**
     * Writes {@code @name}, quoted when it is not a bare identifier.
     *
     * @param name the symbol's name, without {@code @}
     * @return this printer
     */
    OpAsmPrinter symbol(String name);

    /**
     * Writes a value's name.
     *
     * @param v the value
     * @return this printer
     */
    OpAsmPrinter operand(Value v);

    /**
     * Writes value names separated by {@code ", "}.
     *
     * @param vs the values
     * @return this printer
     */
    OpAsmPrinter operands(List<? extends Value> vs);

    /**
     * Writes {@code %a : T, %b : U}.
     *
     * @param vs the values
     * @return this printer
     */
    OpAsmPrinter operandsWithTypes(List<? extends Value> vs);

    /**
     * Writes a block's name.
     *
     * @param b the block
     * @return this printer
     */
    OpAsmPrinter successor(Block b);

    /**
     * Writes {@code ^bb(%a, %b : T, U)}, or just the block when there are no operands.
     *
     * @param b the block
     * @param operands the values passed to the block's arguments
     * @return this printer
     */
    OpAsmPrinter successorWithOperands(Block b, List<Value> operands);

    /**
     * Writes the op's attributes less {@code elided} as {@code " {...}"}; nothing when none remain.
     *
     * @param op the op
     * @param elided the names of the attributes the op's syntax already wrote
     * @return this printer
     */
    OpAsmPrinter attrDict(Operation op, Set<String> elided);

    /**
     * As {@link #attrDict(Operation, Set)}, with the {@code attributes} keyword when {@code withKeyword}.
     *
     * @param op the op
     * @param elided the names of the attributes the op's syntax already wrote
     * @param withKeyword whether to write {@code attributes} before the dictionary
     * @return this printer
     */
    OpAsmPrinter attrDict(Operation op, Set<String> elided, boolean withKeyword);

    /**
     * Writes {@code { ... }}. The entry block's header is written when {@code printEntryHeader} and it has
     * arguments (function syntax writes them in the signature instead).
     *
     * @param r the region
     * @param printEntryHeader whether to write the entry block's header
     * @return this printer
     */
    OpAsmPrinter region(Region r, boolean printEntryHeader);
}
