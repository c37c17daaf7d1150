package dev.mgpu.dialect.gpu;

import dev.mgpu.op.OpDef;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code gpu.dealloc [async] [deps] %m : memref<...>}: frees what {@code gpu.alloc} allocated. */
public final class DeallocOp extends AsyncOpView {
    /** The op's name. */
    public static final String NAME = "gpu.dealloc";

    /**
     * Views {@code op} as a {@code gpu.dealloc}.
     *
     * @param op the operation
     * @throws IllegalArgumentException if {@code op} is not a {@code gpu.dealloc}
     */
    public DeallocOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Creates a deallocation; with {@code async} it returns a token.
     *
     * @param loc the op's location
     * @param deps the tokens to wait for first
     * @param async whether to return a token
     * @param memref the memref to free
     * @return the new, detached op
     */
    public static DeallocOp create(Location loc, List<Value> deps, boolean async, Value memref) {
        return new DeallocOp(create(NAME, loc, deps, async, memref));
    }

    /**
     * The memref to free.
     *
     * @return the last operand
     */
    public Value memref() {
        return op.operand(op.operandCount() - 1);
    }

    static OpDef definition() {
        return OpDef.of(NAME).syntax(DeallocOp::parse, DeallocOp::print).verifier(DeallocOp::verify);
    }

    static Operation parse(OpAsmParser p, int results, Location loc) {
        Deps deps = parseDeps(p, results);
        OpAsmParser.OperandRef m = p.operandRef();
        Map<String, Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        Type t = p.type();
        List<Value> ops = new ArrayList<>(deps.deps());
        ops.add(p.resolve(m, t));
        return Operation.create(NAME, loc, ops, deps.results(), attrs);
    }

    static void print(OpAsmPrinter p, Operation op) {
        DeallocOp d = new DeallocOp(op);
        printDeps(p, d.asyncToken() != null, d.asyncDependencies());
        p.write(' ').operand(d.memref());
        p.attrDict(op, Set.of());
        p.write(" : ").type(d.memref().type());
    }

    static void verify(Operation op, VerifyContext ctx) {
        verifyAsync(op, ctx, 0);
        List<Value> rest = new DeallocOp(op).nonTokenOperands();
        if (rest.size() != 1 || !(rest.get(0).type() instanceof Type.MemRefType)) {
            ctx.error(op, "Invalid gpu.dealloc operand (must be one ranked memref): "
                    + Syntax.join(Syntax.types(rest)));
        }
    }
}
