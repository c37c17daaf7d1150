package dev.mgpu.op;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * What the framework knows about one registered operation: its custom syntax, its verifier, and its
 * traits. Each dialect class registers one per op.
 */
public final class OpDef {
    /** Parses the custom form after the op name; {@code resultCount} results were named before it. */
    @FunctionalInterface
    public interface CustomParser {
        Operation parse(OpAsmParser p, int resultCount, Location loc);
    }

    /** Prints the custom form after the op name. */
    @FunctionalInterface
    public interface CustomPrinter {
        void print(OpAsmPrinter p, Operation op);
    }

    /** Checks one op, adding diagnostics to the context. */
    @FunctionalInterface
    public interface OpVerifier {
        void verify(Operation op, VerifyContext ctx);
    }

    private final String name;
    private CustomParser parser;
    private CustomPrinter printer;
    private OpVerifier verifier = (op, ctx) -> { };
    private boolean terminator;
    private boolean isolated;
    private boolean symbolTable;
    private String defaultDialect;
    private Set<String> inherent = Set.of();
    private Function<Operation, Map<String, Attribute>> toGeneric = Operation::attributes;
    private UnaryOperator<Map<String, Attribute>> fromGeneric = UnaryOperator.identity();

    private OpDef(String name) {
        this.name = name;
    }

    public static OpDef of(String name) {
        return new OpDef(name);
    }

    public OpDef syntax(CustomParser parser, CustomPrinter printer) {
        this.parser = parser;
        this.printer = printer;
        return this;
    }

    public OpDef verifier(OpVerifier v) {
        this.verifier = v;
        return this;
    }

    public OpDef terminator() {
        this.terminator = true;
        return this;
    }

    /** Values defined outside the op's regions are not visible inside them. */
    public OpDef isolatedFromAbove() {
        this.isolated = true;
        return this;
    }

    public OpDef symbolTable() {
        this.symbolTable = true;
        return this;
    }

    /** Inside the op's regions, op names may leave out this dialect. */
    public OpDef defaultDialect(String dialect) {
        this.defaultDialect = dialect;
        return this;
    }

    /** The attribute names that belong to the op (properties), as opposed to discardable ones. */
    public OpDef inherent(String... names) {
        this.inherent = Set.of(names);
        return this;
    }

    /**
     * For an op that keeps some attributes in another shape than upstream's properties: {@code toGeneric}
     * turns the op's attributes into what the generic form shows, {@code fromGeneric} turns what a generic
     * form gives back into the op's attributes. Both return new maps.
     */
    public OpDef genericForm(Function<Operation, Map<String, Attribute>> toGeneric,
            UnaryOperator<Map<String, Attribute>> fromGeneric) {
        this.toGeneric = toGeneric;
        this.fromGeneric = fromGeneric;
        return this;
    }

    /** The attributes of {@code op} as its generic form writes them. */
    public Map<String, Attribute> genericAttributes(Operation op) {
        return toGeneric.apply(op);
    }

    /** The op's own attributes for what its generic form read. */
    public Map<String, Attribute> fromGenericAttributes(Map<String, Attribute> attrs) {
        return fromGeneric.apply(attrs);
    }

    public String name() {
        return name;
    }

    public CustomParser parser() {
        return parser;
    }

    public CustomPrinter printer() {
        return printer;
    }

    public OpVerifier verifier() {
        return verifier;
    }

    public boolean isTerminator() {
        return terminator;
    }

    public boolean isIsolatedFromAbove() {
        return isolated;
    }

    public boolean hasSymbolTable() {
        return symbolTable;
    }

    public String defaultDialect() {
        return defaultDialect;
    }

    public Set<String> inherentAttributes() {
        return inherent;
    }
}
