package dev.mgpu.op;

import dev.mgpu.ir.Diagnostic;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** What op verifiers see: a sink for diagnostics and symbol lookup. */
public final class VerifyContext {
    private final List<Diagnostic> diagnostics = new ArrayList<>();
    private final SymbolTables symbols;

    /**
     * A context with no diagnostics yet; one per verification, since it caches symbol tables.
     * {@code isSymbolTable} says which ops hold symbol tables.
     */
    public VerifyContext(Predicate<Operation> isSymbolTable) {
        this.symbols = new SymbolTables(isSymbolTable);
    }

    public void error(Location loc, String message) {
        diagnostics.add(Diagnostic.error(loc, message));
    }

    public void error(Operation op, String message) {
        error(op.knownLocation(), message);
    }

    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    public SymbolTables symbols() {
        return symbols;
    }

    /** Reports and returns false unless {@code v} has type {@code t}. */
    public boolean expectType(Operation op, String what, Value v, Type t) {
        if (!v.type().equals(t)) {
            error(op, "Invalid " + what + " (must have type " + t + "): " + v.type());
            return false;
        }
        return true;
    }

    /** Reports and returns false unless {@code v} is a signless integer or index. */
    public boolean expectIntegerOrIndex(Operation op, String what, Value v) {
        if (!v.type().isIntegerOrIndex()) {
            error(op, "Invalid " + what + " (must be an integer or index): " + v.type());
            return false;
        }
        return true;
    }
}
