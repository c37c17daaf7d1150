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
import java.util.Arrays;
import java.util.List;

/** {@code gpu.memcpy [async] [deps] %dst, %src : memref<...>, memref<...>}: copies between two memrefs of one shape. */
public final class MemcpyOp extends AsyncOpView {
    /** The op's name. */
    public static final String NAME = "gpu.memcpy";

    /**
     * Views {@code op} as a {@code gpu.memcpy}.
     *
     * @param op the operation
     * @throws IllegalArgumentException if {@code op} is not a {@code gpu.memcpy}
     */
    public MemcpyOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Creates a copy; with {@code async} it returns a token.
     *
     * @param loc the op's location
     * @param deps the tokens to wait for first
     * @param async whether to return a token
     * @param dst the memref to write
     * @param src the memref to read
     * @return the new, detached op
     */
    public static MemcpyOp create(Location loc, List<Value> deps, boolean async, Value dst, Value src) {
        return new MemcpyOp(create(NAME, loc, deps, async, dst, src));
    }

    /**
     * The memref written.
     *
     * @return the first operand after the dependencies
     */
    public Value destination() {
        return nonTokenOperands().get(0);
    }

    /**
     * The memref read.
     *
     * @return the second operand after the dependencies
     */
    public Value source() {
        return nonTokenOperands().get(1);
    }

    static OpDef definition() {
        return OpDef.of(NAME).syntax(MemcpyOp::parse, MemcpyOp::print).verifier(MemcpyOp::verify);
    }

    static Operation parse(OpAsmParser p, int results, Location loc) {
        return parseOperandPair(p, results, loc, NAME);
    }

    static void print(OpAsmPrinter p, Operation op) {
        new MemcpyOp(op).printOperandPair(p);
    }

    static void verify(Operation op, VerifyContext ctx) {
        verifyAsync(op, ctx, 0);
        List<Value> rest = new MemcpyOp(op).nonTokenOperands();
        if (rest.size() != 2 || !(rest.get(0).type() instanceof Type.MemRefType d)
                || !(rest.get(1).type() instanceof Type.MemRefType s)) {
            ctx.error(op, "Invalid gpu.memcpy operands (must be two ranked memrefs): "
                    + Syntax.join(Syntax.types(rest)));
            return;
        }
        verifyByteSize(op, ctx, d);
        if (!d.elementType().equals(s.elementType()) || !Arrays.equals(d.shape(), s.shape())) {
            ctx.error(op, "Invalid gpu.memcpy operands (must have the same shape and element type): " + d + " and "
                    + s);
        }
    }
}
