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
     *
     * @param isSymbolTable whether an op holds a symbol table
     */
    public VerifyContext(Predicate<Operation> isSymbolTable) {
        this.symbols = new SymbolTables(isSymbolTable);
    }

    /**
     * Reports an error.
     *
     * @param loc where the error is
     * @param message what is wrong
     */
    public void error(Location loc, String message) {
        diagnostics.add(Diagnostic.error(loc, message));
    }

    /**
     * Reports an error at {@code op}'s known location (its own, or the nearest enclosing op's).
     *
     * @param op the operation at fault
     * @param message what is wrong
     */
    public void error(Operation op, String message) {
        error(op.knownLocation(), message);
    }

    /**
     * Returns what has been reported so far.
     *
     * @return the diagnostics, in the order reported; the live list, not a copy
     */
    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }

    /**
     * Returns the symbol lookup of this verification.
     *
     * @return the symbol tables, cached per table op
     */
    public SymbolTables symbols() {
        return symbols;
    }

    /**
     * Reports and returns false unless {@code v} has type {@code t}.
     *
     * @param op the operation being checked, where an error is reported
     * @param what what {@code v} is, for the message
     * @param v the value
     * @param t the type it must have
     * @return true when {@code v} has type {@code t}
     */
    public boolean expectType(Operation op, String what, Value v, Type t) {
        if (!v.type().equals(t)) {
            error(op, "Invalid " + what + " (must have type " + t + "): " + v.type());
            return false;
        }
        return true;
    }

    /**
     * Reports and returns false unless {@code v} is a signless integer or index.
     *
     * @param op the operation being checked, where an error is reported
     * @param what what {@code v} is, for the message
     * @param v the value
     * @return true when {@code v} is a signless integer or index
     */
    public boolean expectIntegerOrIndex(Operation op, String what, Value v) {
        if (!v.type().isIntegerOrIndex()) {
            error(op, "Invalid " + what + " (must be an integer or index): " + v.type());
            return false;
        }
        return true;
    }
}
