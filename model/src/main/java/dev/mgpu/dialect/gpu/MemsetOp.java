package dev.mgpu.dialect.gpu;

import dev.mgpu.op.OpDef;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.List;

/**
 * {@code gpu.memset [async] [deps] %dst, %value : memref<...>, T}: fills a memref with one value of its
 * element type, which must be 16 or 32 bits wide (the runtime's {@code mgpuMemset16} and
 * {@code mgpuMemset32}).
 */
public final class MemsetOp extends AsyncOpView {
    /** The op's name. */
    public static final String NAME = "gpu.memset";

    /**
     * Views {@code op} as a {@code gpu.memset}.
     *
     * @param op the operation
     * @throws IllegalArgumentException if {@code op} is not a {@code gpu.memset}
     */
    public MemsetOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Creates a memset; with {@code async} it returns a token.
     *
     * @param loc the op's location
     * @param deps the tokens to wait for first
     * @param async whether to return a token
     * @param dst the memref to fill
     * @param value the value to store, of the memref's element type
     * @return the new, detached op
     */
    public static MemsetOp create(Location loc, List<Value> deps, boolean async, Value dst, Value value) {
        return new MemsetOp(create(NAME, loc, deps, async, dst, value));
    }

    /**
     * The memref to fill.
     *
     * @return the first operand after the dependencies
     */
    public Value destination() {
        return nonTokenOperands().get(0);
    }

    /**
     * The value to store in every element.
     *
     * @return the second operand after the dependencies
     */
    public Value value() {
        return nonTokenOperands().get(1);
    }

    static OpDef definition() {
        return OpDef.of(NAME).syntax(MemsetOp::parse, MemsetOp::print).verifier(MemsetOp::verify);
    }

    static Operation parse(OpAsmParser p, int results, Location loc) {
        return parseOperandPair(p, results, loc, NAME);
    }

    static void print(OpAsmPrinter p, Operation op) {
        new MemsetOp(op).printOperandPair(p);
    }

    static void verify(Operation op, VerifyContext ctx) {
        verifyAsync(op, ctx, 0);
        List<Value> rest = new MemsetOp(op).nonTokenOperands();
        if (rest.size() != 2 || !(rest.get(0).type() instanceof Type.MemRefType d)) {
            ctx.error(op, "Invalid gpu.memset operands (must be a ranked memref and a value): "
                    + Syntax.join(Syntax.types(rest)));
            return;
        }
        if (!rest.get(1).type().equals(d.elementType())) {
            ctx.error(op, "Invalid gpu.memset value (must have the element type " + d.elementType() + "): "
                    + rest.get(1).type());
        }
        verifyByteSize(op, ctx, d);
        Type e = d.elementType();
        int w = e instanceof Type.IntegerType i ? i.width() : e instanceof Type.FloatType f ? f.width() : 0;
        if (w != 16 && w != 32) {
            ctx.error(op, "Invalid gpu.memset element type (must be 16 or 32 bits wide): " + e);
        }
    }
}
