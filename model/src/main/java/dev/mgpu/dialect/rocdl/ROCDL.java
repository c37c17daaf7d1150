package dev.mgpu.dialect.rocdl;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.op.OpDef;
import dev.mgpu.op.RegisterSyntax;
import dev.mgpu.op.Syntax;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rocdl dialect ops that upstream's {@code convert-gpu-to-rocdl} writes: the work-item and work-group
 * indices and sizes, {@code rocdl.barrier}, {@code rocdl.mbcnt.lo}/{@code .hi} and
 * {@code rocdl.ds_bpermute}; they compile for {@code #rocdl.target} only.
 */
public final class ROCDL {
    private ROCDL() {
    }

    /** The index ops, each {@code rocdl.NAME : i32}. */
    public static final List<String> INDICES = List.of("workitem.id.x", "workitem.id.y", "workitem.id.z",
            "workgroup.id.x", "workgroup.id.y", "workgroup.id.z", "workgroup.dim.x", "workgroup.dim.y",
            "workgroup.dim.z", "grid.dim.x", "grid.dim.y", "grid.dim.z");
    /** {@code rocdl.barrier}. */
    public static final String BARRIER = "rocdl.barrier";
    /** {@code rocdl.mbcnt.lo}. */
    public static final String MBCNT_LO = "rocdl.mbcnt.lo";
    /** {@code rocdl.mbcnt.hi}. */
    public static final String MBCNT_HI = "rocdl.mbcnt.hi";
    /** {@code rocdl.ds_bpermute}. */
    public static final String DS_BPERMUTE = "rocdl.ds_bpermute";

    /**
     * The op name of an index register.
     *
     * @param index one of {@link #INDICES}
     * @return {@code rocdl.<index>}
     */
    public static String name(String index) {
        return "rocdl." + index;
    }

    /**
     * {@return every op of the dialect}
     */
    public static List<OpDef> ops() {
        List<OpDef> defs = new ArrayList<>();
        for (String i : INDICES) {
            String name = name(i);
            defs.add(OpDef.of(name).inherent("range").syntax((p, n, loc) -> RegisterSyntax.parseRegister(p, loc,
                    name), RegisterSyntax::printRegister).verifier((op, ctx) -> {
                if (Syntax.verifyCounts(op, ctx, 0, 1)) {
                    ctx.expectType(op, "result of " + op.name(), op.result(0), Type.I32);
                }
            }));
        }
        defs.add(OpDef.of(BARRIER).syntax((p, n, loc) -> Operation.create(BARRIER, loc, List.of(), List.of(),
                p.optionalDictionary()), (p, op) -> p.attrDict(op, Set.of()))
                .verifier((op, ctx) -> Syntax.verifyCounts(op, ctx, 0, 0)));
        for (String n : List.of(MBCNT_LO, MBCNT_HI, DS_BPERMUTE)) {
            defs.add(OpDef.of(n).syntax((p, c, loc) -> parseCall(p, loc, n), ROCDL::printCall)
                    .verifier((op, ctx) -> Syntax.verifyCounts(op, ctx, 2, 1)));
        }
        return defs;
    }

    /** {@code %a, %b [attrs] : (T, U) -> R}. */
    private static Operation parseCall(OpAsmParser p, Location loc, String name) {
        int off = p.offset();
        List<OpAsmParser.OperandRef> refs = p.operandRefs();
        Map<String, Attribute> attrs = p.optionalDictionary();
        p.expectPunct(':');
        Type.FunctionType ft = p.functionType();
        return Operation.create(name, loc, p.resolve(refs, ft.inputs(), off), ft.results(), attrs);
    }

    private static void printCall(OpAsmPrinter p, Operation op) {
        p.write(' ').operands(op.operands());
        p.attrDict(op, Set.of());
        p.write(" : ").type(new Type.FunctionType(Syntax.types(op.operands()), Syntax.types(op.results())));
    }

    /**
     * Creates {@code rocdl.NAME : i32}.
     *
     * @param loc where the op comes from
     * @param index one of {@link #INDICES}
     * @return the new op, detached
     */
    public static Operation readIndex(Location loc, String index) {
        if (!INDICES.contains(index)) {
            throw new IllegalArgumentException("Invalid index (must be one of " + INDICES + "): " + index);
        }
        return Operation.create(name(index), loc, List.of(), List.of(Type.I32), Map.of());
    }
}
