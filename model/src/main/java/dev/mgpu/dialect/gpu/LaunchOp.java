package dev.mgpu.dialect.gpu;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code gpu.launch blocks(%bx, %by, %bz) in (%gx = %a, %gy = %b, %gz = %c) threads(%tx, %ty, %tz) in
 * (%sx = %d, %sy = %e, %sz = %f) [dynamic_shared_memory_size %m] { body }}: a kernel written in place. Its
 * body's entry block has twelve index arguments: the block and thread indices, then the grid and block
 * sizes; it ends with {@code gpu.terminator}. Translation outlines it into a kernel of its own
 * {@code gpu.module} and a {@code gpu.launch_func}, as upstream's {@code gpu-kernel-outlining} does.
 */
public final class LaunchOp extends OpView {
    /** The op's name. */
    public static final String NAME = "gpu.launch";
    /** {@code gpu.terminator}, which ends the body. */
    public static final String TERMINATOR = "gpu.terminator";

    /**
     * Views a {@code gpu.launch}.
     *
     * @param op the op
     */
    public LaunchOp(Operation op) {
        super(op, NAME);
    }

    /** {@return the grid size operands x, y, z} */
    public List<Value> gridSizes() {
        return op.operands().subList(0, 3);
    }

    /** {@return the block size operands x, y, z} */
    public List<Value> blockSizes() {
        return op.operands().subList(3, 6);
    }

    /** {@return the dynamic shared memory size (an i32), or null} */
    public Value dynamicSharedMemorySize() {
        return op.operandCount() > 6 ? op.operand(6) : null;
    }

    /** {@return the body} */
    public Region body() {
        return op.region(0);
    }

    static List<OpDef> definitions() {
        return List.of(OpDef.of(NAME).inherent("operandSegmentSizes").syntax(LaunchOp::parse, LaunchOp::print)
                .verifier(LaunchOp::verify),
                OpDef.of(TERMINATOR).terminator().syntax((p, n, loc) -> Operation.create(TERMINATOR, loc, List.of(),
                        List.of(), p.optionalDictionary()), (p, op) -> p.attrDict(op, Set.of()))
                        .verifier((op, ctx) -> {
                            Operation parent = op.parentOp();
                            if (parent == null || !parent.name().equals(NAME)) {
                                ctx.error(op, "Invalid gpu.terminator (must end the body of a gpu.launch): "
                                        + (parent == null ? "top level" : parent.name()));
                            }
                        }));
    }

    /** {@code keyword(%a, %b, %c) in (%x = %v, %y = %w, %z = %u)}: three names, then three named operands. */
    private static void triple(OpAsmParser p, String keyword, List<OpAsmParser.OperandRef> ids,
            List<OpAsmParser.OperandRef> sizeNames, List<OpAsmParser.OperandRef> sizes) {
        p.expectKeyword(keyword);
        p.expectPunct('(');
        for (int i = 0; i < 3; i++) {
            if (i > 0) {
                p.expectPunct(',');
            }
            ids.add(p.operandRef());
        }
        p.expectPunct(')');
        p.expectKeyword("in");
        p.expectPunct('(');
        for (int i = 0; i < 3; i++) {
            if (i > 0) {
                p.expectPunct(',');
            }
            sizeNames.add(p.operandRef());
            p.expectPunct('=');
            sizes.add(p.operandRef());
        }
        p.expectPunct(')');
    }

    private static Operation parse(OpAsmParser p, int results, Location loc) {
        if (p.atKeyword("async") || p.atKeyword("clusters") || p.atPunct('[')) {
            throw p.errorAt(p.offset(), "Invalid gpu.launch (must be synchronous and without clusters here): "
                    + p.peekKeyword());
        }
        List<OpAsmParser.OperandRef> blockIds = new ArrayList<>();
        List<OpAsmParser.OperandRef> gridNames = new ArrayList<>();
        List<OpAsmParser.OperandRef> grid = new ArrayList<>();
        triple(p, "blocks", blockIds, gridNames, grid);
        List<OpAsmParser.OperandRef> threadIds = new ArrayList<>();
        List<OpAsmParser.OperandRef> blockNames = new ArrayList<>();
        List<OpAsmParser.OperandRef> block = new ArrayList<>();
        triple(p, "threads", threadIds, blockNames, block);
        List<Value> operands = new ArrayList<>(p.resolveAll(grid, Type.INDEX));
        operands.addAll(p.resolveAll(block, Type.INDEX));
        boolean smem = p.optionalKeyword("dynamic_shared_memory_size");
        if (smem) {
            operands.add(p.resolve(p.operandRef(), Type.I32));
        }
        Map<String, Attribute> attrs = new LinkedHashMap<>(p.optionalAttributesKeyword());
        attrs.put("operandSegmentSizes", Attribute.DenseArrayAttr.i32(0, 1, 1, 1, 1, 1, 1, 0, 0, 0, smem ? 1 : 0));
        List<OpAsmParser.Argument> args = new ArrayList<>();
        for (List<OpAsmParser.OperandRef> names : List.of(blockIds, threadIds, gridNames, blockNames)) {
            for (OpAsmParser.OperandRef r : names) {
                args.add(new OpAsmParser.Argument(r, Type.INDEX, null, loc));
            }
        }
        Region body = p.region(args, false);
        return Operation.create(NAME, loc, operands, List.of(), attrs, List.of(body), List.of());
    }

    private static void print(OpAsmPrinter p, Operation op) {
        Block entry = op.region(0).entry();
        String[] keywords = {"blocks", "threads"};
        for (int k = 0; k < 2; k++) {
            p.write(' ').write(keywords[k]).write('(');
            for (int i = 0; i < 3; i++) {
                p.write(i > 0 ? ", " : "").operand(entry.argument(3 * k + i));
            }
            p.write(") in (");
            for (int i = 0; i < 3; i++) {
                p.write(i > 0 ? ", " : "").operand(entry.argument(6 + 3 * k + i)).write(" = ")
                        .operand(op.operand(3 * k + i));
            }
            p.write(')');
        }
        if (op.operandCount() > 6) {
            p.write(" dynamic_shared_memory_size ").operand(op.operand(6));
        }
        p.attrDict(op, Set.of("operandSegmentSizes"), true);
        p.write(' ').region(op.region(0), false);
    }

    private static void verify(Operation op, VerifyContext ctx) {
        if (op.operandCount() < 6 || op.operandCount() > 7 || op.regions().size() != 1 || op.region(0).isEmpty()) {
            ctx.error(op, "Invalid gpu.launch (must have grid and block sizes and a body): " + op.operandCount()
                    + " operands");
            return;
        }
        for (int i = 0; i < 6; i++) {
            ctx.expectType(op, "size of gpu.launch", op.operand(i), Type.INDEX);
        }
        List<Type> args = Syntax.types(op.region(0).entry().arguments());
        if (args.size() != 12 || args.stream().anyMatch(t -> !t.equals(Type.INDEX))) {
            ctx.error(op, "Invalid body of gpu.launch (must take twelve index arguments): (" + Syntax.join(args) + ")");
        }
    }
}
