package dev.mgpu.op;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A view of a function op ({@code func.func}, {@code llvm.func}, {@code gpu.func}): a symbol with a
 * {@code function_type} and one region, empty for a declaration.
 */
public abstract class FunctionOpView extends OpView {
    /**
     * Views {@code op}, which must be named {@code expectedName}.
     *
     * @param op the operation
     * @param expectedName the name the op must have
     * @throws IllegalArgumentException if {@code op} has another name
     */
    protected FunctionOpView(Operation op, String expectedName) {
        super(op, expectedName);
    }

    /**
     * Creates a function op named {@code opName}; with {@code withBody}, an entry block whose arguments
     * match the inputs.
     *
     * @param opName the op's name, such as {@code func.func}
     * @param loc the op's location
     * @param name the function's symbol name
     * @param type the function's type
     * @param withBody whether to add an entry block
     * @return the new, detached op
     */
    protected static Operation create(String opName, Location loc, String name, Type.FunctionType type,
            boolean withBody) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("sym_name", Attribute.StringAttr.of(name));
        attrs.put("function_type", new Attribute.TypeAttr(type));
        Operation op = Operation.create(opName, loc, List.of(), List.of(), attrs, 1, List.of());
        if (withBody) {
            Block entry = op.region(0).append(new Block(loc));
            for (Type t : type.inputs()) {
                entry.addArgument(t, loc);
            }
        }
        return op;
    }

    /**
     * The function's symbol name.
     *
     * @return the {@code sym_name} attribute's value
     */
    public String name() {
        return op.symbolName();
    }

    /**
     * The function type.
     *
     * @return the {@code function_type} attribute's type, or null when it is missing
     */
    public Type.FunctionType type() {
        return Syntax.functionType(op);
    }

    /**
     * Whether it has no body.
     *
     * @return true when the op's region has no block
     */
    public boolean isDeclaration() {
        return op.region(0).isEmpty();
    }

    /**
     * The entry block, or null for a declaration.
     *
     * @return the entry block, or null
     */
    public Block body() {
        return op.region(0).entry();
    }
}
