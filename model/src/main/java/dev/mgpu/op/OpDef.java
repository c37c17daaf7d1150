package dev.mgpu.op;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.Operation;
import dev.mgpu.text.OpAsmParser;
import dev.mgpu.text.OpAsmPrinter;
import java.util.List;
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
        /**
         * Parses the custom form.
         *
         * @param p the parser, after the op's name
         * @param resultCount the number of result names before the op
         * @param loc the op's location
         * @return the new, detached op
         * @throws dev.mgpu.ir.MgpuException if the text is not the op's custom form
         */
        Operation parse(OpAsmParser p, int resultCount, Location loc);
    }

    /** Prints the custom form after the op name. */
    @FunctionalInterface
    public interface CustomPrinter {
        /**
         * Prints the custom form.
         *
         * @param p the printer, after the op's name
         * @param op the op to print
         */
        void print(OpAsmPrinter p, Operation op);
    }

    /** Checks one op, adding diagnostics to the context. */
    @FunctionalInterface
    public interface OpVerifier {
        /**
         * Checks one op.
         *
         * @param op the op
         * @param ctx where diagnostics are added
         */
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
    private Function<Operation, List<String>> resultNames;

    private OpDef(String name) {
        this.name = name;
    }

    /**
     * A definition of the op {@code name}, without custom syntax or rules, to fill in with the other methods.
     *
     * @param name the op's full name, such as {@code gpu.binary}
     * @return the new definition
     */
    public static OpDef of(String name) {
        return new OpDef(name);
    }

    /**
     * Gives the op a custom form.
     *
     * @param parser parses the custom form
     * @param printer prints it
     * @return this definition
     */
    public OpDef syntax(CustomParser parser, CustomPrinter printer) {
        this.parser = parser;
        this.printer = printer;
        return this;
    }

    /**
     * Gives the op its rules.
     *
     * @param v checks one op
     * @return this definition
     */
    public OpDef verifier(OpVerifier v) {
        this.verifier = v;
        return this;
    }

    /**
     * Names the op's results in printed text, in order, as upstream's printer names them ({@code %alloca}).
     * The printer makes each name unique in its scope with a suffix {@code _N}; an op without names gets
     * numbers.
     *
     * @param names the names of the results, without {@code %}
     * @return this definition
     */
    public OpDef resultNames(String... names) {
        List<String> fixed = List.of(names);
        this.resultNames = op -> fixed;
        return this;
    }

    /**
     * Names the op's results in printed text by what the op holds ({@code %c0} for a constant 0).
     *
     * @param names gives the names of an op's results, in order, without {@code %}
     * @return this definition
     */
    public OpDef resultNames(Function<Operation, List<String>> names) {
        this.resultNames = names;
        return this;
    }

    /**
     * The names the printer gives the results of {@code op}; empty when they are numbered.
     *
     * @param op the op
     * @return the names, without {@code %}
     */
    public List<String> resultNames(Operation op) {
        return resultNames == null ? List.of() : resultNames.apply(op);
    }

    /**
     * Marks the op as one that must end its block.
     *
     * @return this definition
     */
    public OpDef terminator() {
        this.terminator = true;
        return this;
    }

    /**
     * Values defined outside the op's regions are not visible inside them.
     *
     * @return this definition
     */
    public OpDef isolatedFromAbove() {
        this.isolated = true;
        return this;
    }

    /**
     * Marks the op as holding a symbol table: the symbols defined in its region.
     *
     * @return this definition
     */
    public OpDef symbolTable() {
        this.symbolTable = true;
        return this;
    }

    /**
     * Inside the op's regions, op names may leave out this dialect.
     *
     * @param dialect the dialect's name, such as {@code gpu}
     * @return this definition
     */
    public OpDef defaultDialect(String dialect) {
        this.defaultDialect = dialect;
        return this;
    }

    /**
     * The attribute names that belong to the op (properties), as opposed to discardable ones.
     *
     * @param names the inherent attributes' names
     * @return this definition
     */
    public OpDef inherent(String... names) {
        this.inherent = Set.of(names);
        return this;
    }

    /**
     * For an op that keeps some attributes in another shape than upstream's properties: {@code toGeneric}
     * turns the op's attributes into what the generic form shows, {@code fromGeneric} turns what a generic
     * form gives back into the op's attributes. Both return new maps.
     *
     * @param toGeneric gives the attributes the generic form writes for an op
     * @param fromGeneric gives the op's attributes for those a generic form read
     * @return this definition
     */
    public OpDef genericForm(Function<Operation, Map<String, Attribute>> toGeneric,
            UnaryOperator<Map<String, Attribute>> fromGeneric) {
        this.toGeneric = toGeneric;
        this.fromGeneric = fromGeneric;
        return this;
    }

    /**
     * The attributes of {@code op} as its generic form writes them.
     *
     * @param op the op
     * @return the attributes to write
     */
    public Map<String, Attribute> genericAttributes(Operation op) {
        return toGeneric.apply(op);
    }

    /**
     * The op's own attributes for what its generic form read.
     *
     * @param attrs the attributes the generic form read
     * @return the op's attributes
     */
    public Map<String, Attribute> fromGenericAttributes(Map<String, Attribute> attrs) {
        return fromGeneric.apply(attrs);
    }

    /**
     * The op's full name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The custom form's parser.
     *
     * @return the parser, or null when the op has only the generic form
     */
    public CustomParser parser() {
        return parser;
    }

    /**
     * The custom form's printer.
     *
     * @return the printer, or null when the op has only the generic form
     */
    public CustomPrinter printer() {
        return printer;
    }

    /**
     * The op's rules.
     *
     * @return the verifier; one that accepts every op unless {@link #verifier(OpVerifier)} set another
     */
    public OpVerifier verifier() {
        return verifier;
    }

    /**
     * Whether the op must end its block.
     *
     * @return true if it was marked a terminator
     */
    public boolean isTerminator() {
        return terminator;
    }

    /**
     * Whether values defined outside the op's regions are invisible inside them.
     *
     * @return true if it was marked isolated from above
     */
    public boolean isIsolatedFromAbove() {
        return isolated;
    }

    /**
     * Whether the op holds a symbol table.
     *
     * @return true if it was marked a symbol table
     */
    public boolean hasSymbolTable() {
        return symbolTable;
    }

    /**
     * The dialect op names may leave out inside the op's regions.
     *
     * @return the dialect's name, or null
     */
    public String defaultDialect() {
        return defaultDialect;
    }

    /**
     * The attribute names that belong to the op.
     *
     * @return the inherent attributes' names
     */
    public Set<String> inherentAttributes() {
        return inherent;
    }
}
