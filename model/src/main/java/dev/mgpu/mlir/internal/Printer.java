package dev.mgpu.mlir.internal;

import dev.mgpu.dialect.Dialects;
import dev.mgpu.op.OpDef;
import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import dev.mgpu.text.OpAsmPrinter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes operations as MLIR text. Names are assigned before printing, per region isolated from above, in
 * program order ({@code %argN} for entry-block arguments, {@code %N} for everything else, {@code ^bbN} for
 * blocks), so the same module always prints the same bytes.
 */
public final class Printer implements OpAsmPrinter {
    private final AsmOutput out;
    private final boolean printLocations;
    private final boolean generic;
    private final Map<Value, String> names = new IdentityHashMap<>();
    private final Map<Block, String> blockNames = new IdentityHashMap<>();
    private int indent;

    public Printer(AsmOutput out, boolean printLocations, boolean generic) {
        this.out = out;
        this.printLocations = printLocations;
        this.generic = generic;
    }

    @Override
    public Printer write(String s) {
        out.write(s);
        return this;
    }

    @Override
    public Printer write(char c) {
        out.write(c);
        return this;
    }

    @Override
    public Printer type(Type t) {
        out.type(t);
        return this;
    }

    @Override
    public Printer types(List<? extends Type> ts) {
        for (int i = 0; i < ts.size(); i++) {
            if (i > 0) {
                out.write(", ");
            }
            out.type(ts.get(i));
        }
        return this;
    }

    @Override
    public Printer attr(Attribute a) {
        out.attr(a);
        return this;
    }

    @Override
    public Printer symbol(String name) {
        out.symbol(name);
        return this;
    }

    @Override
    public Printer operand(Value v) {
        String n = names.get(v);
        if (n == null) {
            throw new IllegalStateException("value without a name: " + v + " (it is not defined in the printed op)");
        }
        out.write(n);
        return this;
    }

    @Override
    public Printer operands(List<? extends Value> vs) {
        for (int i = 0; i < vs.size(); i++) {
            if (i > 0) {
                out.write(", ");
            }
            operand(vs.get(i));
        }
        return this;
    }

    /** {@code %a : T, %b : U}. */
    @Override
    public Printer operandsWithTypes(List<? extends Value> vs) {
        for (int i = 0; i < vs.size(); i++) {
            if (i > 0) {
                out.write(", ");
            }
            operand(vs.get(i)).write(" : ").type(vs.get(i).type());
        }
        return this;
    }

    @Override
    public Printer successor(Block b) {
        String n = blockNames.get(b);
        if (n == null) {
            throw new IllegalStateException("block without a name (it is not in the printed op)");
        }
        out.write(n);
        return this;
    }

    /** {@code ^bb(%a, %b : T, U)}, or just the block when there are no operands. */
    @Override
    public Printer successorWithOperands(Block b, List<Value> operands) {
        successor(b);
        if (!operands.isEmpty()) {
            out.write('(');
            operands(operands).write(" : ");
            types(operands.stream().map(Value::type).toList());
            out.write(')');
        }
        return this;
    }

    /** The op's attributes, less {@code elided}, as {@code {...}}; nothing when none remain. */
    @Override
    public Printer attrDict(Operation op, Set<String> elided) {
        return attrDict(op, elided, false);
    }

    @Override
    public Printer attrDict(Operation op, Set<String> elided, boolean withKeyword) {
        if (elided.containsAll(op.attributes().keySet())) {
            return this;
        }
        Map<String, Attribute> m = new LinkedHashMap<>();
        for (Map.Entry<String, Attribute> e : op.attributes().entrySet()) {
            if (!elided.contains(e.getKey())) {
                m.put(e.getKey(), e.getValue());
            }
        }
        if (!m.isEmpty()) {
            out.write(withKeyword ? " attributes " : " ");
            out.dictionary(m);
        }
        return this;
    }

    private void newline() {
        out.write('\n');
        for (int i = 0; i < indent; i++) {
            out.write("  ");
        }
    }

    /** Prints a top-level operation followed by a newline. */
    public void printTopLevel(Operation op) {
        assignNames(op);
        operation(op);
        out.write('\n');
    }

    private void operation(Operation op) {
        if (op.resultCount() > 0) {
            Value r0 = op.result(0);
            String n = names.get(r0);
            if (op.resultCount() == 1 || n.indexOf('#') < 0) {
                out.write(n);
                for (int i = 1; i < op.resultCount(); i++) {
                    out.write(", ").write(names.get(op.result(i)));
                }
            } else {
                out.write(n.substring(0, n.indexOf('#'))).write(':').write((long) op.resultCount());
            }
            out.write(" = ");
        }
        OpDef def = Dialects.lookup(op);
        if (!generic && def != null && def.printer() != null) {
            Operation parent = op.parentOp();
            OpDef pd = parent == null ? null : Dialects.lookup(parent);
            String name = op.name();
            if (pd != null && pd.defaultDialect() != null && name.startsWith(pd.defaultDialect() + ".")
                    && op.dialect().equals("func")) {
                name = name.substring(pd.defaultDialect().length() + 1);
            }
            if (name.startsWith("builtin.")) {
                name = name.substring("builtin.".length());
            }
            out.write(name);
            def.printer().print(this, op);
        } else {
            genericOperation(op, def);
        }
        if (printLocations) {
            out.write(' ');
            location(op.location());
        }
    }

    private void location(Location l) {
        out.write("loc(");
        locationBody(l);
        out.write(')');
    }

    private void locationBody(Location l) {
        if (l instanceof Location.FileLineCol f) {
            out.quoted(f.file()).write(':').write(f.line()).write(':').write(f.column());
        } else if (l instanceof Location.Named n) {
            out.quoted(n.name());
            if (!(n.child() instanceof Location.Unknown)) {
                out.write('(');
                locationBody(n.child());
                out.write(')');
            }
        } else {
            out.write("unknown");
        }
    }

    private void genericOperation(Operation op, OpDef def) {
        out.quoted(op.name()).write('(');
        operands(op.operands());
        out.write(')');
        if (!op.successors().isEmpty()) {
            out.write('[');
            for (int i = 0; i < op.successors().size(); i++) {
                if (i > 0) {
                    out.write(", ");
                }
                successor(op.successors().get(i));
            }
            out.write(']');
        }
        Set<String> inherent = def == null ? Set.of() : def.inherentAttributes();
        Map<String, Attribute> props = new LinkedHashMap<>();
        Map<String, Attribute> rest = new LinkedHashMap<>();
        Map<String, Attribute> attrs = def == null ? op.attributes() : def.genericAttributes(op);
        for (Map.Entry<String, Attribute> e : attrs.entrySet()) {
            (inherent.contains(e.getKey()) ? props : rest).put(e.getKey(), e.getValue());
        }
        if (!props.isEmpty()) {
            out.write(" <");
            out.dictionary(props);
            out.write('>');
        }
        if (!op.regions().isEmpty()) {
            out.write(" (");
            for (int i = 0; i < op.regions().size(); i++) {
                if (i > 0) {
                    out.write(", ");
                }
                region(op.region(i), true);
            }
            out.write(')');
        }
        if (!rest.isEmpty()) {
            out.write(' ');
            out.dictionary(rest);
        }
        out.write(" : (");
        types(op.operands().stream().map(Value::type).toList());
        out.write(") -> ");
        List<Type> rt = op.results().stream().map(Value::type).toList();
        if (rt.size() == 1 && !(rt.get(0) instanceof Type.FunctionType)) {
            type(rt.get(0));
        } else {
            out.write('(');
            types(rt);
            out.write(')');
        }
    }

    /**
     * Prints {@code { ... }}. The entry block's header is printed when {@code printEntryHeader} and it has
     * arguments (custom function syntax prints them in the signature instead).
     */
    @Override
    public Printer region(Region r, boolean printEntryHeader) {
        out.write('{');
        indent++;
        List<Block> bs = r.blocks();
        for (int i = 0; i < bs.size(); i++) {
            Block b = bs.get(i);
            // The generic form (printEntryHeader) labels an empty entry block, or it would read back as no block.
            boolean header = i > 0 || (printEntryHeader && (!b.arguments().isEmpty() || b.operations().isEmpty()));
            if (header) {
                out.write('\n');
                for (int k = 0; k < indent - 1; k++) {
                    out.write("  ");
                }
                successor(b);
                if (!b.arguments().isEmpty()) {
                    out.write('(');
                    for (int a = 0; a < b.arguments().size(); a++) {
                        if (a > 0) {
                            out.write(", ");
                        }
                        Value v = b.argument(a);
                        operand(v).write(": ").type(v.type());
                    }
                    out.write(')');
                }
                out.write(':');
            }
            for (Operation op : b.operations()) {
                newline();
                operation(op);
            }
        }
        indent--;
        newline();
        out.write('}');
        return this;
    }

    /** Names every value and block under {@code root}, as upstream's printer names them. */
    private void assignNames(Operation root) {
        Namer top = new Namer(0, 0, 0, new HashSet<>());
        top.results(root);
        top.nested(root);
    }

    /**
     * The names of one region's values. A region's own values are named first: block by block, a block's
     * arguments ({@code %argN} in the entry block, else numbers), then its ops' results, by the names their
     * op suggests ({@code %c0}, {@code %thread_id_x}, made unique with {@code _N}) or by numbers. Then each
     * nested region is named from where this region ended, so sibling regions reuse the same numbers and
     * names. A function or module starts again from zero.
     */
    private final class Namer {
        private int values;
        private int args;
        private int conflicts;
        private final Set<String> used;

        Namer(int values, int args, int conflicts, Set<String> used) {
            this.values = values;
            this.args = args;
            this.conflicts = conflicts;
            this.used = used;
        }

        void region(Region r) {
            int blockNo = 0;
            for (Block b : r.blocks()) {
                blockNames.put(b, "^bb" + blockNo++);
                for (Value v : b.arguments()) {
                    names.put(v, b == r.entry() ? "%arg" + args++ : "%" + values++);
                }
                for (Operation o : b.operations()) {
                    results(o);
                }
            }
            List<Operation> holders = new ArrayList<>();
            for (Block b : r.blocks()) {
                for (Operation o : b.operations()) {
                    if (!o.regions().isEmpty()) {
                        holders.add(o);
                    }
                }
            }
            if (generic) {
                for (int i = holders.size() - 1; i >= 0; i--) {
                    nested(holders.get(i));
                }
            } else {
                for (Operation o : holders) {
                    nested(o);
                }
            }
        }

        void results(Operation op) {
            OpDef d = Dialects.lookup(op);
            List<String> suggested = generic || d == null || op.resultCount() == 0 ? List.of() : d.resultNames(op);
            if (!suggested.isEmpty()) {
                for (int i = 0; i < op.resultCount(); i++) {
                    names.put(op.result(i), i < suggested.size() ? "%" + unique(suggested.get(i)) : "%" + values++);
                }
            } else if (op.resultCount() == 1) {
                names.put(op.result(0), "%" + values++);
            } else if (op.resultCount() > 1) {
                String base = "%" + values++;
                for (int i = 0; i < op.resultCount(); i++) {
                    names.put(op.result(i), base + "#" + i);
                }
            }
        }

        private String unique(String name) {
            String n = name;
            while (!used.add(n)) {
                n = name + "_" + conflicts++;
            }
            return n;
        }

        void nested(Operation op) {
            // Names start again in a function or module, as upstream's do; the body of an isolated op that is
            // neither (gpu.all_reduce's) goes on with the names around it, which its parser cannot shadow.
            boolean isolated = op.parentOp() == null || Dialects.lookup(op) == null || Dialects.isIsolatedFromAbove(op)
                    && (op.symbolName() != null || Dialects.hasSymbolTable(op));
            List<Region> regions = op.regions();
            for (int i = 0; i < regions.size(); i++) {
                if (generic) {
                    // Upstream's generic form numbers on through every nested region, the last of them first,
                    // functions too.
                    region(regions.get(regions.size() - 1 - i));
                } else if (isolated) {
                    new Namer(0, 0, 0, new HashSet<>()).region(regions.get(i));
                } else {
                    new Namer(values, args, conflicts, new HashSet<>(used)).region(regions.get(i));
                }
            }
        }
    }
}
