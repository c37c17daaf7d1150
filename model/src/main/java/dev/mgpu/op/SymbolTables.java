package dev.mgpu.op;

import dev.mgpu.ir.Block;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Region;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Predicate;

/** Symbol lookup in symbol-table ops ({@code module}, {@code gpu.module}), built once per table. */
public final class SymbolTables {
    private final Map<Operation, Map<String, Operation>> tables = new IdentityHashMap<>();
    private final Predicate<Operation> isTable;

    /** Symbol lookup where {@code isTable} says which ops hold a symbol table (the registry knows). */
    public SymbolTables(Predicate<Operation> isTable) {
        this.isTable = isTable;
    }

    /** The symbols defined directly in {@code table}; the first definition wins. */
    public Map<String, Operation> of(Operation table) {
        return tables.computeIfAbsent(table, t -> {
            Map<String, Operation> m = new HashMap<>();
            for (Region r : t.regions()) {
                for (Block b : r.blocks()) {
                    for (Operation op : b.operations()) {
                        String n = op.symbolName();
                        if (n != null) {
                            m.putIfAbsent(n, op);
                        }
                    }
                }
            }
            return m;
        });
    }

    /** The nearest enclosing symbol-table op of {@code op}, or null. */
    public Operation enclosingTable(Operation op) {
        Operation p = op.parentOp();
        while (p != null && !isTable.test(p)) {
            p = p.parentOp();
        }
        return p;
    }

    /** Looks up {@code name} starting at the table enclosing {@code from}, walking outwards. */
    public Operation lookup(Operation from, String name) {
        for (Operation t = enclosingTable(from); t != null; t = enclosingTable(t)) {
            Operation found = of(t).get(name);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /** Resolves {@code @a::@b} from {@code from}: {@code @a} outwards, then {@code @b} inside it. */
    public Operation lookup(Operation from, dev.mgpu.ir.Attribute.SymbolRefAttr ref) {
        Operation cur = lookup(from, ref.root());
        for (String n : ref.nested()) {
            if (cur == null || !isTable.test(cur)) {
                return null;
            }
            cur = of(cur).get(n);
        }
        return cur;
    }
}
