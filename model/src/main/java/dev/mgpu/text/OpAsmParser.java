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
    /** A reference to a value by name, not yet resolved to a {@link Value}. */
    record OperandRef(String name, int number, int offset) {
        @Override
        public String toString() {
            return "%" + name + (number > 0 ? "#" + number : "");
        }
    }

    /** A named (or, in declarations, unnamed) typed argument of a signature or block header. */
    record Argument(OperandRef name, Type type, Attribute.DictionaryAttr attrs, Location loc) {
    }

    /** Whether the current token is an SSA value ({@code %name}). */
    boolean atValue();

    /** {@code %name} or {@code %name#N}. */
    OperandRef operandRef();

    /** Operand references separated by commas, possibly none (stops at anything but a value). */
    List<OperandRef> operandRefs();

    /** Resolves a reference to a value of {@code type}, creating a forward reference if needed. */
    Value resolve(OperandRef ref, Type type);

    /** Resolves references pairwise with types; {@code offset} locates a count mismatch. */
    List<Value> resolve(List<OperandRef> refs, List<Type> types, int offset);

    /** Resolves every reference to a value of {@code type}. */
    List<Value> resolveAll(List<OperandRef> refs, Type type);

    /**
     * Parses {@code { ... }} into a new detached region. The entry block gets {@code entryArgs} as its
     * arguments (null when the region's own block header gives them); an {@code isolated} region sees no
     * value defined outside it.
     */
    Region region(List<Argument> entryArgs, boolean isolated);

    /** {@code ^bb} as a branch target; it may be defined later in the region. */
    Block successor();

    /** {@code ^bb} optionally followed by {@code (%v, ... : T, ...)}; the values are appended to {@code operands}. */
    Block successorWithOperands(List<Value> operands);

    /** A parenthesised argument list: {@code (%a: T {attrs}, ...)} or, when allowed, {@code (T, ...)}. */
    List<Argument> argumentList(boolean allowTypesOnly);
}
