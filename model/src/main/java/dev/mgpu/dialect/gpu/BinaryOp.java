package dev.mgpu.dialect.gpu;

import dev.mgpu.op.OpView;

import dev.mgpu.op.OpDef;
import dev.mgpu.op.Syntax;
import dev.mgpu.op.VerifyContext;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code gpu.binary @name [<handler>] [objects]}: device objects and the offloading handler that embeds
 * them and launches their kernels. Without a handler it is {@code #gpu.select_object} (the first object),
 * which the printer leaves out.
 */
public final class BinaryOp extends dev.mgpu.op.OpView {
    /** The op's name. */
    public static final String NAME = "gpu.binary";

    /**
     * Views {@code op} as a {@code gpu.binary}.
     *
     * @param op the operation
     * @throws IllegalArgumentException if {@code op} is not a {@code gpu.binary}
     */
    public BinaryOp(Operation op) {
        super(op, NAME);
    }

    /**
     * Creates a binary with the default handler when {@code handler} is null.
     *
     * @param loc the op's location
     * @param name the binary's symbol name
     * @param handler the offloading handler, or null for {@link OffloadingHandlerAttr#DEFAULT}
     * @param objects the device objects
     * @return the new, detached op
     */
    public static BinaryOp create(Location loc, String name, OffloadingHandlerAttr handler, List<ObjectAttr> objects) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("sym_name", Attribute.StringAttr.of(name));
        attrs.put("offloadingHandler", handler == null ? OffloadingHandlerAttr.DEFAULT : handler);
        attrs.put("objects", new Attribute.ArrayAttr(new ArrayList<>(objects)));
        return new BinaryOp(Operation.create(NAME, loc, List.of(), List.of(), attrs));
    }

    /**
     * The binary's symbol name.
     *
     * @return the {@code sym_name} attribute's value
     */
    public String name() {
        return op.symbolName();
    }

    /**
     * The handler attribute, which the verifier has checked is an offloading handler.
     *
     * @return the {@code offloadingHandler} attribute, or {@link OffloadingHandlerAttr#DEFAULT} when it is absent
     */
    public Attribute handler() {
        Attribute h = op.attr("offloadingHandler");
        return h == null ? OffloadingHandlerAttr.DEFAULT : h;
    }

    /**
     * The objects, as attributes; the verifier has checked that each is a {@link ObjectAttr}.
     *
     * @return the {@code objects} attribute's elements; empty when it is absent
     */
    public List<Attribute> objects() {
        return op.attr("objects") instanceof Attribute.ArrayAttr a ? a.elements() : List.of();
    }

    /**
     * Object {@code i}.
     *
     * @param i the index, from 0
     * @return the object
     * @throws IndexOutOfBoundsException if there is no such object
     */
    public ObjectAttr object(int i) {
        return (ObjectAttr) objects().get(i);
    }

    static OpDef definition() {
        return OpDef.of(NAME).inherent("sym_name", "offloadingHandler", "objects")
                .syntax(BinaryOp::parse, BinaryOp::print).verifier(BinaryOp::verify);
    }

    static Operation parse(OpAsmParser p, int results, Location loc) {
        Map<String, Attribute> attrs = new LinkedHashMap<>();
        attrs.put("sym_name", Attribute.StringAttr.of(p.symbolName()));
        Attribute handler = OffloadingHandlerAttr.DEFAULT;
        if (p.optionalPunct('<')) {
            handler = p.attribute();
            p.expectPunct('>');
        }
        attrs.put("offloadingHandler", handler);
        attrs.putAll(p.optionalDictionary());
        if (!p.atPunct('[')) {
            throw p.expected("the object list '[...]'");
        }
        attrs.put("objects", p.attribute());
        return Operation.create(NAME, loc, List.of(), List.of(), attrs);
    }

    static void print(OpAsmPrinter p, Operation op) {
        p.write(' ').symbol(op.symbolName());
        Attribute h = op.attr("offloadingHandler");
        if (h != null && !h.equals(OffloadingHandlerAttr.DEFAULT)) {
            p.write(" <").attr(h).write('>');
        }
        p.attrDict(op, Set.of("sym_name", "offloadingHandler", "objects"));
        p.write(' ').attr(op.attr("objects"));
    }

    static void verify(Operation op, VerifyContext ctx) {
        if (!Syntax.verifySymbolName(op, ctx)) {
            return;
        }
        Attribute objs = op.attr("objects");
        if (!(objs instanceof Attribute.ArrayAttr arr) || arr.size() == 0) {
            ctx.error(op, "Invalid gpu.binary objects (must be a non-empty array of #gpu.object): "
                    + (objs == null ? "none" : objs));
            return;
        }
        for (int i = 0; i < arr.size(); i++) {
            if (!(arr.get(i) instanceof ObjectAttr o)) {
                ctx.error(op, "Invalid gpu.binary object #" + i + " (must be a #gpu.object): " + arr.get(i));
                return;
            }
            if (!(o.target() instanceof GpuTarget)) {
                ctx.error(op, "Invalid #gpu.object target (must be a GPU target attribute): " + o.target());
            }
        }
        Attribute h = op.attr("offloadingHandler");
        if (h == null) {
            return;
        }
        if (!(h instanceof OffloadingHandlerAttr handler)) {
            ctx.error(op, "Invalid offloading handler (must be an offloading handler attribute): " + h);
            return;
        }
        if (handler instanceof OffloadingHandlerAttr.SelectObject s) {
            verifySelection(op, s, arr, ctx);
        } else if (handler instanceof OffloadingHandlerAttr.External e) {
            OffloadingHandler impl = OffloadingHandler.lookup(e.name());
            if (impl == null) {
                ctx.error(op, "Invalid offloading handler (must be registered): #" + e.name());
            } else {
                for (String msg : impl.verify(e, arr.elements())) {
                    ctx.error(op, msg);
                }
            }
        }
    }

    /** Says why {@link OffloadingHandlerAttr.SelectObject#select} finds no object, when it finds none. */
    private static void verifySelection(Operation op, OffloadingHandlerAttr.SelectObject s, Attribute.ArrayAttr arr,
            VerifyContext ctx) {
        Attribute t = s.target();
        if (t == null || s.select(arr.elements()) >= 0) {
            return;
        }
        if (t instanceof Attribute.IntegerAttr i) {
            ctx.error(op, i.value() < 0 ? "Invalid object index (must be >= 0): " + i.value()
                    : "Invalid object index (must be < " + arr.size() + ", the number of objects): " + i.value());
        } else if (t instanceof GpuTarget) {
            ctx.error(op, "Invalid select_object target (must match the target of an object): " + t);
        } else {
            ctx.error(op, "Invalid select_object target (must be an integer or a GPU target attribute): " + t);
        }
    }
}
