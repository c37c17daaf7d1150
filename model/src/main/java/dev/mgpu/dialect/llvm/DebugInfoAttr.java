package dev.mgpu.dialect.llvm;

import dev.mgpu.ir.AsmOutput;
import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.DialectAttribute;
import dev.mgpu.op.AttrDef;
import dev.mgpu.text.AsmParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One of the {@code #llvm.di_*} debug-info attributes ({@code #llvm.di_file<"a.mlir" in "/src">},
 * {@code #llvm.di_subprogram<id = distinct[0]<>, ...>}, ...), as {@code mlir-opt
 * --ensure-debug-info-scope-on-llvm-func} writes them into fused locations. mgpu reads them, keeps them
 * and prints them back; its own {@code -g} line tables come from the locations, so translation does not
 * read them.
 *
 * <p>The parameters are kept as the sequence of tokens between the angle brackets: keywords,
 * punctuation, integers, and nested attributes (strings, other debug-info attributes, {@code distinct}),
 * which covers the different shapes of the debug-info attributes with one parser.
 *
 * @param name the attribute's name, such as {@code llvm.di_file}
 * @param tokens the parameters: {@link String} for a keyword or punctuation, {@link Long} for an
 *     integer, {@link Attribute} for a nested attribute (an empty list when there are no angle brackets)
 */
public record DebugInfoAttr(String name, List<Object> tokens) implements DialectAttribute {
    /** The debug-info attribute names of the llvm dialect. */
    public static final List<String> NAMES = List.of("di_annotation", "di_basic_type", "di_common_block",
            "di_compile_unit", "di_composite_type", "di_derived_type", "di_expression", "di_expression_elem",
            "di_file", "di_generic_subrange", "di_global_variable", "di_global_variable_expression",
            "di_imported_entity", "di_label", "di_lexical_block", "di_lexical_block_file", "di_local_variable",
            "di_module", "di_namespace", "di_null_type", "di_recursive_type", "di_string_type", "di_subprogram",
            "di_subrange", "di_subroutine_type");

    private static final String PUNCTUATION = ",=()[]<>|:";

    /** {@return A parser for each name in {@link #NAMES}} */
    public static List<AttrDef> definitions() {
        List<AttrDef> defs = new ArrayList<>();
        for (String n : NAMES) {
            String full = "llvm." + n;
            defs.add(new AttrDef(full, (p, off) -> parse(p, full)));
        }
        return defs;
    }

    /**
     * Parses the optional {@code <...>} after the name: balanced angle brackets, with nested attributes
     * read as attributes.
     *
     * @param p the parser, after the attribute's name
     * @param name the attribute's full name, such as {@code llvm.di_file}
     * @return the attribute
     */
    public static DebugInfoAttr parse(AsmParser p, String name) {
        List<Object> tokens = new ArrayList<>();
        if (!p.optionalPunct('<')) {
            return new DebugInfoAttr(name, List.of());
        }
        int depth = 0;
        while (true) {
            if (depth == 0 && p.optionalPunct('>')) {
                return new DebugInfoAttr(name, List.copyOf(tokens));
            }
            char punct = 0;
            for (int i = 0; i < PUNCTUATION.length(); i++) {
                if (p.atPunct(PUNCTUATION.charAt(i))) {
                    punct = PUNCTUATION.charAt(i);
                    break;
                }
            }
            if (p.atInteger() || p.atPunct('-')) {
                tokens.add(p.integer());
            } else if (punct != 0) {
                p.expectPunct(punct);
                depth += punct == '<' ? 1 : punct == '>' ? -1 : 0;
                tokens.add(String.valueOf(punct));
            } else if (p.peekKeyword() != null && !p.atKeyword("distinct") && !p.atKeyword("true")
                    && !p.atKeyword("false")) {
                tokens.add(p.keyword());
            } else {
                tokens.add(p.attribute());
            }
        }
    }

    @Override
    public void print(AsmOutput out) {
        out.write('#').write(name);
        if (tokens.isEmpty()) {
            return;
        }
        out.write('<');
        Object prev = null;
        for (Object t : tokens) {
            if (prev != null && spaceBetween(prev, t)) {
                out.write(' ');
            }
            if (t instanceof Attribute a) {
                out.attr(a);
            } else if (t instanceof Long n) {
                out.write(n);
            } else {
                out.write((String) t);
            }
            prev = t;
        }
        out.write('>');
    }

    /** Spaces as MLIR prints them: after commas, around {@code =}, none inside brackets. */
    private static boolean spaceBetween(Object prev, Object next) {
        if (next instanceof String n && ",)]>(".contains(n) && n.length() == 1) {
            return false;
        }
        if (prev instanceof String p && p.length() == 1 && "([<".contains(p)) {
            return false;
        }
        return true;
    }

    @Override
    public String toString() {
        return AsmOutput.render(this);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DebugInfoAttr other && Objects.equals(name, other.name)
                && Objects.equals(tokens, other.tokens);
    }

    @Override
    public int hashCode() {
        return 31 * Objects.hashCode(name) + Objects.hashCode(tokens);
    }
}
