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
    /** Writes text as is. */
    OpAsmPrinter write(String s);

    /** Writes one ASCII character. */
    OpAsmPrinter write(char c);

    /** Writes a type. */
    OpAsmPrinter type(Type t);

    /** Writes types separated by {@code ", "}. */
    OpAsmPrinter types(List<? extends Type> ts);

    /** Writes an attribute. */
    OpAsmPrinter attr(Attribute a);

    /** Writes {@code @name}, quoted when it is not a bare identifier. */
    OpAsmPrinter symbol(String name);

    /** Writes a value's name. */
    OpAsmPrinter operand(Value v);

    /** Writes value names separated by {@code ", "}. */
    OpAsmPrinter operands(List<? extends Value> vs);

    /** Writes {@code %a : T, %b : U}. */
    OpAsmPrinter operandsWithTypes(List<? extends Value> vs);

    /** Writes a block's name. */
    OpAsmPrinter successor(Block b);

    /** Writes {@code ^bb(%a, %b : T, U)}, or just the block when there are no operands. */
    OpAsmPrinter successorWithOperands(Block b, List<Value> operands);

    /** Writes the op's attributes less {@code elided} as {@code " {...}"}; nothing when none remain. */
    OpAsmPrinter attrDict(Operation op, Set<String> elided);

    /** As {@link #attrDict(Operation, Set)}, with the {@code attributes} keyword when {@code withKeyword}. */
    OpAsmPrinter attrDict(Operation op, Set<String> elided, boolean withKeyword);

    /**
     * Writes {@code { ... }}. The entry block's header is written when {@code printEntryHeader} and it has
     * arguments (function syntax writes them in the signature instead).
     */
    OpAsmPrinter region(Region r, boolean printEntryHeader);
}
