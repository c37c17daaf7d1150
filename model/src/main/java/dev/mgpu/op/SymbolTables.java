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

    /**
     * Symbol lookup where {@code isTable} says which ops hold a symbol table (the registry knows).
     *
     * @param isTable whether an op holds a symbol table
     */
    public SymbolTables(Predicate<Operation> isTable) {
        this.isTable = isTable;
    }

    /**
     * The symbols defined directly in {@code table}; the first definition wins.
     *
     * @param table an op that holds a symbol table
     * @return the symbols, by name; computed once per table
     */
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

    /**
     * The nearest enclosing symbol-table op of {@code op}, or null.
     *
     * @param op the operation
     * @return the closest ancestor that holds a symbol table, or null
     */
    public Operation enclosingTable(Operation op) {
        Operation p = op.parentOp();
        while (p != null && !isTable.test(p)) {
            p = p.parentOp();
        }
        return p;
    }

    /**
     * Looks up {@code name} starting at the table enclosing {@code from}, walking outwards.
     *
     * @param from the operation the reference is made in
     * @param name the symbol's name
     * @return the first definition found, or null
     */
    public Operation lookup(Operation from, String name) {
        for (Operation t = enclosingTable(from); t != null; t = enclosingTable(t)) {
            Operation found = of(t).get(name);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    /**
     * Resolves {@code @a::@b} from {@code from}: {@code @a} outwards, then {@code @b} inside it.
     *
     * @param from the operation the reference is made in
     * @param ref the symbol reference
     * @return the operation it names, or null when some part is not found
     */
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
