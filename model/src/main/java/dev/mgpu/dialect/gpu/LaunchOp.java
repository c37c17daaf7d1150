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
 * {@code [%t =] gpu.launch [async [%deps]] blocks(%bx, %by, %bz) in (%gx = %a, %gy = %b, %gz = %c)
 * threads(%tx, %ty, %tz) in (%sx = %d, %sy = %e, %sz = %f) [dynamic_shared_memory_size %m]
 * [module(@m)] [function(@f)] [workgroup(%w : T, ...)] [private(%p : T, ...)] { body }}: a kernel written in place. Its body's entry
 * block has twelve index arguments (the block and thread indices, then the grid and block sizes), then one
 * per workgroup and private attribution; it ends with {@code gpu.terminator}. Translation outlines it into a kernel of its own
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

    /** {@return the async tokens the launch waits for} */
    public List<Value> asyncDependencies() {
        return AsyncOpView.dependencies(op);
    }

    /** {@return whether the launch returns an async token} */
    public boolean isAsync() {
        return op.resultCount() == 1;
    }

    /** {@return the grid size operands x, y, z} */
    public List<Value> gridSizes() {
        int d = asyncDependencies().size();
        return op.operands().subList(d, d + 3);
    }

    /** {@return the block size operands x, y, z} */
    public List<Value> blockSizes() {
        int d = asyncDependencies().size();
        return op.operands().subList(d + 3, d + 6);
    }

    /** {@return the dynamic shared memory size (an i32), or null} */
    public Value dynamicSharedMemorySize() {
        int d = asyncDependencies().size();
        return op.operandCount() > d + 6 ? op.operand(d + 6) : null;
    }

    /** {@return the name the outlined kernel's module is to have ({@code module(@m)}), or null} */
    public String moduleName() {
        return op.attr("module") instanceof Attribute.SymbolRefAttr r ? r.root() : null;
    }

    /** {@return the name the outlined kernel is to have ({@code function(@f)}), or null} */
    public String functionName() {
        return op.attr("function") instanceof Attribute.SymbolRefAttr r ? r.root() : null;
    }

    /** {@return the number of workgroup attributions (entry block arguments after the twelve indices)} */
    public int workgroupCount() {
        return op.attr(GpuFuncOp.WORKGROUP_COUNT) instanceof Attribute.IntegerAttr i ? (int) i.value() : 0;
    }

    /** {@return the body} */
    public Region body() {
        return op.region(0);
    }

    static List<OpDef> definitions() {
        return List.of(OpDef.of(NAME).inherent("operandSegmentSizes", "module", "function")
                .syntax(LaunchOp::parse, LaunchOp::print)
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
        AsyncOpView.Deps deps = AsyncOpView.parseDeps(p, results);
        if (p.atKeyword("clusters")) {
            throw p.errorAt(p.offset(), "Invalid gpu.launch (must be without clusters here): clusters");
        }
        List<OpAsmParser.OperandRef> blockIds = new ArrayList<>();
        List<OpAsmParser.OperandRef> gridNames = new ArrayList<>();
        List<OpAsmParser.OperandRef> grid = new ArrayList<>();
        triple(p, "blocks", blockIds, gridNames, grid);
        List<OpAsmParser.OperandRef> threadIds = new ArrayList<>();
        List<OpAsmParser.OperandRef> blockNames = new ArrayList<>();
        List<OpAsmParser.OperandRef> block = new ArrayList<>();
        triple(p, "threads", threadIds, blockNames, block);
        List<Value> operands = new ArrayList<>(deps.deps());
        operands.addAll(p.resolveAll(grid, Type.INDEX));
        operands.addAll(p.resolveAll(block, Type.INDEX));
        boolean smem = p.optionalKeyword("dynamic_shared_memory_size");
        if (smem) {
            operands.add(p.resolve(p.operandRef(), Type.I32));
        }
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        for (String k : List.of("module", "function")) {
            if (p.optionalKeyword(k)) {
                p.expectPunct('(');
                attrs.put(k, p.symbolRef());
                p.expectPunct(')');
            }
        }
        List<OpAsmParser.Argument> memory = GpuFuncOp.attributions(p, attrs, false);
        attrs.put("operandSegmentSizes", Attribute.DenseArrayAttr.i32(deps.deps().size(), 1, 1, 1, 1, 1, 1, 0, 0, 0,
                smem ? 1 : 0));
        List<OpAsmParser.Argument> args = new ArrayList<>();
        for (List<OpAsmParser.OperandRef> names : List.of(blockIds, threadIds, gridNames, blockNames)) {
            for (OpAsmParser.OperandRef r : names) {
                args.add(new OpAsmParser.Argument(r, Type.INDEX, null, loc));
            }
        }
        args.addAll(memory);
        Region body = p.region(args, false);
        // The attribute dictionary follows the body, as upstream writes it.
        attrs.putAll(p.optionalDictionary());
        return Operation.create(NAME, loc, operands, deps.results(), attrs, List.of(body), List.of());
    }

    private static void print(OpAsmPrinter p, Operation op) {
        LaunchOp l = new LaunchOp(op);
        AsyncOpView.printDeps(p, l.isAsync(), l.asyncDependencies());
        int d = l.asyncDependencies().size();
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
                        .operand(op.operand(d + 3 * k + i));
            }
            p.write(')');
        }
        if (l.dynamicSharedMemorySize() != null) {
            p.write(" dynamic_shared_memory_size ").operand(l.dynamicSharedMemorySize());
        }
        for (String k : List.of("module", "function")) {
            if (op.attr(k) instanceof Attribute.SymbolRefAttr ref && ref.nested().isEmpty()) {
                p.write(' ').write(k).write('(').symbol(ref.root()).write(')');
            }
        }
        List<Value> memory = entry.arguments().size() > 12 ? List.copyOf(entry.arguments().subList(12,
                entry.arguments().size())) : List.of();
        int w = Math.max(0, Math.min(l.workgroupCount(), memory.size()));
        GpuFuncOp.printGroup(p, "workgroup", memory.subList(0, w), null);
        GpuFuncOp.printGroup(p, "private", memory.subList(w, memory.size()), null);
        p.write(' ').region(op.region(0), false);
        p.attrDict(op, Set.of("operandSegmentSizes", GpuFuncOp.WORKGROUP_COUNT, "module", "function"));
    }

    private static void verify(Operation op, VerifyContext ctx) {
        AsyncOpView.verifyAsync(op, ctx, 0);
        int d = AsyncOpView.dependencies(op).size();
        if (op.operandCount() < d + 6 || op.operandCount() > d + 7 || op.regions().size() != 1
                || op.region(0).isEmpty()) {
            ctx.error(op, "Invalid gpu.launch (must have grid and block sizes and a body): " + op.operandCount()
                    + " operands");
            return;
        }
        for (int i = d; i < d + 6; i++) {
            ctx.expectType(op, "size of gpu.launch", op.operand(i), Type.INDEX);
        }
        List<Type> args = Syntax.types(op.region(0).entry().arguments());
        if (args.size() < 12 || args.subList(0, 12).stream().anyMatch(t -> !t.equals(Type.INDEX))) {
            ctx.error(op, "Invalid body of gpu.launch (must take twelve index arguments, then its attributions): ("
                    + Syntax.join(args) + ")");
            return;
        }
        int w = new LaunchOp(op).workgroupCount();
        if (w < 0 || w > args.size() - 12) {
            ctx.error(op, "Invalid workgroup_attributions of gpu.launch (must be at most the " + (args.size() - 12)
                    + " body arguments after the twelve indices): " + w);
            return;
        }
        GpuFuncOp.verifyAttributions(op, ctx, args.subList(12, args.size()), w);
    }
}
