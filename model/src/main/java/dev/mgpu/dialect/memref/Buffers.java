package dev.mgpu.dialect.memref;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The memref ops on whole buffers, as host code uses them: {@code alloc} and {@code dealloc} on the heap,
 * {@code copy} of every element, and {@code rank}. Each op is a nested class with its name, accessors,
 * creation, syntax and rules.
 */
public final class Buffers {
    private Buffers() {
    }

    static List<OpDef> ops() {
        return List.of(AllocOp.definition(), DeallocOp.definition(), CopyOp.definition(), RankOp.definition());
    }

    /**
     * {@code %m = memref.alloc(%d, ...) {alignment = N} : memref<...>}: memory on the heap, one size operand
     * per dynamic dimension.
     */
    public static final class AllocOp extends Allocations.SizedAllocation {
        /** The op's name. */
        public static final String NAME = "memref.alloc";

        /**
         * Views a {@code memref.alloc}.
         *
         * @param op the op
         */
        public AllocOp(Operation op) {
            super(op, NAME);
        }

        /**
         * Creates an alloc of {@code type}.
         *
         * @param loc where the op comes from
         * @param type the memref type
         * @param dynamicSizes one index per dynamic dimension
         * @return the new op, detached
         */
        public static AllocOp create(Location loc, Type.MemRefType type, List<Value> dynamicSizes) {
            return new AllocOp(create(NAME, loc, type, dynamicSizes));
        }

        static OpDef definition() {
            return OpDef.of(NAME).inherent("alignment", "operandSegmentSizes")
                    .syntax((p, n, loc) -> Allocations.parseSized(p, loc, NAME), Allocations::printSized)
                    .verifier(AllocOp::verify).resultNames("alloc");
        }

        private static void verify(Operation op, VerifyContext ctx) {
            Allocations.verifySized(op, ctx, NAME);
            MemRef.verifyAlignment(op, ctx);
        }
    }

    /** {@code memref.dealloc %m : memref<...>}: frees what {@code memref.alloc} allocated. */
    public static final class DeallocOp extends OpView {
        /** The op's name. */
        public static final String NAME = "memref.dealloc";

        /**
         * Views a {@code memref.dealloc}.
         *
         * @param op the op
         */
        public DeallocOp(Operation op) {
            super(op, NAME);
        }

        /** {@return the memref freed} */
        public Value memref() {
            return op.operand(0);
        }

        static OpDef definition() {
            return OpDef.of(NAME).syntax(DeallocOp::parse, DeallocOp::print).verifier(DeallocOp::verify);
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            OpAsmParser.OperandRef m = p.operandRef();
            Map<String, Attribute> attrs = p.optionalDictionary();
            p.expectPunct(':');
            Type t = p.type();
            return Operation.create(NAME, loc, List.of(p.resolve(m, t)), List.of(), attrs);
        }

        private static void print(OpAsmPrinter p, Operation op) {
            p.write(' ').operand(op.operand(0));
            p.attrDict(op, Set.of());
            p.write(" : ").type(op.operand(0).type());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 1, 0)) {
                return;
            }
            Type t = op.operand(0).type();
            if (!(t instanceof Type.MemRefType) && !(t instanceof Type.UnrankedMemRefType)) {
                ctx.error(op, "Invalid operand of memref.dealloc (must be a memref): " + t);
            }
        }
    }

    /** {@code memref.copy %from, %to : memref<...> to memref<...>}: copies every element. */
    public static final class CopyOp extends OpView {
        /** The op's name. */
        public static final String NAME = "memref.copy";

        /**
         * Views a {@code memref.copy}.
         *
         * @param op the op
         */
        public CopyOp(Operation op) {
            super(op, NAME);
        }

        /** {@return the memref read} */
        public Value source() {
            return op.operand(0);
        }

        /** {@return the memref written} */
        public Value target() {
            return op.operand(1);
        }

        static OpDef definition() {
            return OpDef.of(NAME).syntax(CopyOp::parse, CopyOp::print).verifier(CopyOp::verify);
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            OpAsmParser.OperandRef from = p.operandRef();
            p.expectPunct(',');
            OpAsmParser.OperandRef to = p.operandRef();
            Map<String, Attribute> attrs = p.optionalDictionary();
            p.expectPunct(':');
            Type ft = p.type();
            p.expectKeyword("to");
            Type tt = p.type();
            return Operation.create(NAME, loc, List.of(p.resolve(from, ft), p.resolve(to, tt)), List.of(), attrs);
        }

        private static void print(OpAsmPrinter p, Operation op) {
            p.write(' ').operand(op.operand(0)).write(", ").operand(op.operand(1));
            p.attrDict(op, Set.of());
            p.write(" : ").type(op.operand(0).type()).write(" to ").type(op.operand(1).type());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 2, 0)) {
                return;
            }
            Type from = op.operand(0).type();
            Type to = op.operand(1).type();
            Type fe = elementOf(from);
            Type te = elementOf(to);
            if (fe == null || te == null) {
                ctx.error(op, "Invalid operands of memref.copy (must be memrefs): " + from + ", " + to);
            } else if (!fe.equals(te)) {
                ctx.error(op, "Invalid operands of memref.copy (must have one element type): " + from + ", " + to);
            } else if (from instanceof Type.MemRefType f && to instanceof Type.MemRefType t && f.rank() != t.rank()) {
                ctx.error(op, "Invalid operands of memref.copy (must have one shape): " + from + ", " + to);
            }
        }
    }

    /** {@code %r = memref.rank %m : memref<...>}: the number of dimensions. */
    public static final class RankOp extends OpView {
        /** The op's name. */
        public static final String NAME = "memref.rank";

        /**
         * Views a {@code memref.rank}.
         *
         * @param op the op
         */
        public RankOp(Operation op) {
            super(op, NAME);
        }

        /** {@return the memref asked} */
        public Value memref() {
            return op.operand(0);
        }

        static OpDef definition() {
            return OpDef.of(NAME).syntax(RankOp::parse, RankOp::print).verifier(RankOp::verify);
        }

        private static Operation parse(OpAsmParser p, int results, Location loc) {
            OpAsmParser.OperandRef m = p.operandRef();
            Map<String, Attribute> attrs = p.optionalDictionary();
            p.expectPunct(':');
            Type t = p.type();
            return Operation.create(NAME, loc, List.of(p.resolve(m, t)), List.of(Type.INDEX), attrs);
        }

        private static void print(OpAsmPrinter p, Operation op) {
            p.write(' ').operand(op.operand(0));
            p.attrDict(op, Set.of());
            p.write(" : ").type(op.operand(0).type());
        }

        private static void verify(Operation op, VerifyContext ctx) {
            if (!Syntax.verifyCounts(op, ctx, 1, 1)) {
                return;
            }
            if (elementOf(op.operand(0).type()) == null) {
                ctx.error(op, "Invalid operand of memref.rank (must be a memref): " + op.operand(0).type());
            }
            ctx.expectType(op, "result of memref.rank", op.result(0), Type.INDEX);
        }
    }

    /** The element type of a ranked or unranked memref, else null. */
    static Type elementOf(Type t) {
        if (t instanceof Type.MemRefType m) {
            return m.elementType();
        }
        return t instanceof Type.UnrankedMemRefType u ? u.elementType() : null;
    }
}
