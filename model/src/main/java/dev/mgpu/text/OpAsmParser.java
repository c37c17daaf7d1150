package dev.mgpu.text;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.List;

/**
 * What an op's custom syntax sees of the parser: everything of {@link AsmParser}, plus SSA values,
 * regions, blocks and successors. Values are named by {@link OperandRef} first and resolved to a
 * {@link Value} once their type is known; a value used before its definition resolves to a placeholder
 * that the parser replaces when the definition arrives.
 *
 * <p>An op parser reads what follows the op name and returns the new, detached op; the parser binds the
 * result names and the trailing location.
 */
public interface OpAsmParser extends AsmParser {
    /**
     * A reference to a value by name, not yet resolved to a {@link Value}.
     *
     * @param name the value's name without {@code %}
     * @param number the result number after {@code #}, or 0
     * @param offset the reference's offset in the input, for errors
     */
    record OperandRef(String name, int number, int offset) {
        @Override
        public String toString() {
            return "%" + name + (number > 0 ? "#" + number : "");
        }
    }

    /**
     * A named (or, in declarations, unnamed) typed argument of a signature or block header.
     *
     * @param name the argument's name; for a type-only argument, an empty name
     * @param type the argument's type
     * @param attrs the argument's attributes, or null
     * @param loc the argument's location
     */
    record Argument(OperandRef name, Type type, Attribute.DictionaryAttr attrs, Location loc) {
    }

    /**
     * Whether the current token is an SSA value ({@code %name}).
     *
     * @return true when the current token is a {@code %} identifier
     */
    boolean atValue();

    /**
     * {@code %name} or {@code %name#N}.
     *
     * @return the reference
     * @throws dev.mgpu.ir.MgpuException if the current token is not a value
     */
    OperandRef operandRef();

    /**
     * Operand references separated by commas, possibly none (stops at anything but a value).
     *
     * @return the references; empty when the current token is not a value
     */
    List<OperandRef> operandRefs();

    /**
     * Resolves a reference to a value of {@code type}, creating a forward reference if needed.
     *
     * @param ref the reference
     * @param type the type the value must have
     * @return the value, or a placeholder for one defined later
     * @throws dev.mgpu.ir.MgpuException if the value is defined with another type
     */
    Value resolve(OperandRef ref, Type type);

    /**
     * Resolves references pairwise with types; {@code offset} locates a count mismatch.
     *
     * @param refs the references
     * @param types their types, one per reference
     * @param offset where the list starts in the input
     * @return the values, in order
     * @throws dev.mgpu.ir.MgpuException if the counts differ or a value has another type
     */
    List<Value> resolve(List<OperandRef> refs, List<Type> types, int offset);

    /**
     * Resolves every reference to a value of {@code type}.
     *
     * @param refs the references
     * @param type the type every value must have
     * @return the values, in order
     * @throws dev.mgpu.ir.MgpuException if a value has another type
     */
    List<Value> resolveAll(List<OperandRef> refs, Type type);

    /**
     * Parses {@code { ... }} into a new detached region. The entry block gets {@code entryArgs} as its
     * arguments (null when the region's own block header gives them); an {@code isolated} region sees no
     * value defined outside it.
     *
     * @param entryArgs the entry block's arguments, or null
     * @param isolated whether the region is isolated from values defined above it
     * @return the region
     * @throws dev.mgpu.ir.MgpuException if the region is not valid
     */
    Region region(List<Argument> entryArgs, boolean isolated);

    /**
     * As {@link #region(List, boolean)}, except that {@code { }} gives an entry block with {@code entryArgs}
     * and no operations, for ops whose body ends with an implicit terminator (scf.for).
     *
     * @param entryArgs the entry block's arguments
     * @param isolated whether the region is isolated from values defined above it
     * @return the region
     * @throws dev.mgpu.ir.MgpuException if the region is not valid
     */
    Region regionWithEntry(List<Argument> entryArgs, boolean isolated);

    /**
     * {@code ^bb} as a branch target; it may be defined later in the region.
     *
     * @return the block, possibly not yet defined
     */
    Block successor();

    /**
     * {@code ^bb} optionally followed by {@code (%v, ... : T, ...)}; the values are appended to {@code operands}.
     *
     * @param operands the list to append the successor's operands to
     * @return the block, possibly not yet defined
     */
    Block successorWithOperands(List<Value> operands);

    /**
     * A parenthesised argument list: {@code (%a: T {attrs}, ...)} or, when allowed, {@code (T, ...)}.
     *
     * @param allowTypesOnly whether arguments may be bare types, as in a declaration
     * @return the arguments
     * @throws dev.mgpu.ir.MgpuException if the list is not valid
     */
    List<Argument> argumentList(boolean allowTypesOnly);
}
