package dev.mgpu.dialect.gpu;

import dev.mgpu.op.OpDef;
import dev.mgpu.op.OpView;
import dev.mgpu.op.Syntax;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code gpu.module @name [<handler>] [targets] { gpu.func ... }}: a symbol table of kernels. */
public final class GpuModuleOp extends OpView {
    /** The op's name. */
    public static final String NAME = "gpu.module";

    /** The attribute that holds the module's targets, an array of target attributes. */
    public static final String TARGETS = "targets";

    /** The attribute that holds the offloading handler the module's {@code gpu.binary} gets. */
    public static final String OFFLOADING_HANDLER = "offloadingHandler";

    /**
     * Views {@code op} as a {@code gpu.module}.
     *
     * @param op the operation
     * @throws IllegalArgumentException if {@code op} is not a {@code gpu.module}
     */
    public GpuModuleOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Creates an empty module with one body block.
     *
     * @param loc the module's location
     * @param name the module's symbol name
     * @param targets the targets to compile the module for, or null for none
     * @return the new, detached module
     */
    public static GpuModuleOp create(Location loc, String name, Attribute.ArrayAttr targets) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("sym_name", Attribute.StringAttr.of(name));
        if (targets != null) {
            attrs.put(TARGETS, targets);
        }
        Operation op = Operation.create(NAME, loc, List.of(), List.of(), attrs, 1, List.of());
        op.region(0).append(new Block(loc));
        return new GpuModuleOp(op);
    }

    /**
     * The module's symbol name.
     *
     * @return the {@code sym_name} attribute's value
     */
    public String name() {
        return op.symbolName();
    }

    /**
     * The block holding the kernels.
     *
     * @return the entry block of the module's region
     */
    public Block body() {
        return op.region(0).entry();
    }

    /**
     * The targets the module's kernels are compiled for.
     *
     * @return the targets, in order; empty when it has none
     */
    public List<GpuTarget> targets() {
        List<GpuTarget> out = new ArrayList<>();
        if (op.attr(TARGETS) instanceof Attribute.ArrayAttr a) {
            for (Attribute t : a.elements()) {
                if (t instanceof GpuTarget g) {
                    out.add(g);
                }
            }
        }
        return out;
    }

    /**
     * Sets the targets the module's kernels are compiled for, one object each.
     *
     * @param targets the targets, at least one, in the order of the objects
     * @return this module
     * @throws IllegalArgumentException if {@code targets} is empty
     */
    public GpuModuleOp setTargets(List<? extends GpuTarget> targets) {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("Invalid gpu.module targets (must list at least one target): []");
        }
        op.setAttr(TARGETS, new Attribute.ArrayAttr(List.copyOf(targets)));
        return this;
    }

    /**
     * The offloading handler the module's {@code gpu.binary} gets when its kernels are compiled.
     *
     * @return the handler, or null when the module names none (the binary's default then)
     */
    public OffloadingHandlerAttr offloadingHandler() {
        return op.attr(OFFLOADING_HANDLER) instanceof OffloadingHandlerAttr h ? h : null;
    }

    /**
     * Sets the offloading handler the module's {@code gpu.binary} gets, such as
     * {@link OffloadingHandlerAttr.RuntimeSelect} to pick the object at run time.
     *
     * @param handler the handler
     * @return this module
     */
    public GpuModuleOp setOffloadingHandler(OffloadingHandlerAttr handler) {
        op.setAttr(OFFLOADING_HANDLER, java.util.Objects.requireNonNull(handler, "handler"));
        return this;
    }

    static OpDef definition() {
        return OpDef.of(NAME).isolatedFromAbove().symbolTable().defaultDialect("gpu")
                .inherent("sym_name", TARGETS, OFFLOADING_HANDLER)
                .syntax(GpuModuleOp::parse, GpuModuleOp::print)
                .verifier(GpuModuleOp::verify);
    }

    static void verify(Operation op, dev.mgpu.op.VerifyContext ctx) {
        if (op.regions().size() != 1) {
            // The generic form can leave the body out; every reader of a gpu.module reads its body.
            ctx.error(op, "Invalid gpu.module (must have one region, its body): " + op.regions().size()
                    + " regions");
            return;
        }
        Syntax.verifySymbolName(op, ctx);
        Attribute targets = op.attr(TARGETS);
        if (targets == null) {
            return;
        }
        if (!(targets instanceof Attribute.ArrayAttr arr)) {
            ctx.error(op, "Invalid gpu.module targets (must be an array of target attributes): " + targets);
            return;
        }
        if (arr.elements().isEmpty()) {
            // An empty list is no target at all, which the absent attribute already says.
            ctx.error(op, "Invalid gpu.module targets (must list at least one target attribute): []");
        }
        for (Attribute t : arr.elements()) {
            if (!(t instanceof GpuTarget)) {
                ctx.error(op, "Invalid gpu.module target (must be a target attribute such as #nvvm.target): " + t);
            }
        }
    }

    static Operation parse(OpAsmParser p, int results, Location loc) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("sym_name", Attribute.StringAttr.of(p.symbolName()));
        if (p.optionalPunct('<')) {
            attrs.put(OFFLOADING_HANDLER, p.attribute());
            p.expectPunct('>');
        }
        if (p.atPunct('[')) {
            attrs.put(TARGETS, p.attribute());
        }
        attrs.putAll(p.optionalAttributesKeyword());
        Region body = p.region(null, true);
        if (body.isEmpty()) {
            body.append(new Block(loc));
        }
        return Operation.create(NAME, loc, List.of(), List.of(), attrs, List.of(body), List.of());
    }

    static void print(OpAsmPrinter p, Operation op) {
        p.write(' ').symbol(op.symbolName());
        if (op.attr(OFFLOADING_HANDLER) != null) {
            p.write(" <").attr(op.attr(OFFLOADING_HANDLER)).write('>');
        }
        if (op.attr(TARGETS) != null) {
            p.write(' ').attr(op.attr(TARGETS));
        }
        p.attrDict(op, Set.of("sym_name", TARGETS, OFFLOADING_HANDLER), true);
        p.write(' ').region(op.region(0), false);
    }
}
