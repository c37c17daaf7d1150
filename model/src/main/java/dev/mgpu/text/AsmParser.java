package dev.mgpu.text;

import dev.mgpu.ir.Attribute;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Type;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a dialect's attribute and type syntax sees of the parser: tokens, literals, types and attributes,
 * with every error located at the token that caused it. Methods named {@code optionalX} consume and
 * return true (or a value) only when X is next; {@code expectX} and the plain readers throw a located
 * {@link MgpuException} otherwise.
 */
public interface AsmParser {
    /** The location of the current token. */
    Location location();

    /** The location of a byte offset of the input, as returned by {@link #offset()}. */
    Location locationOf(int offset);

    /** The byte offset of the current token, to locate a later error at it. */
    int offset();

    /** An error at the current token. */
    MgpuException error(String message);

    /** An error at an earlier offset. */
    MgpuException errorAt(int offset, String message);

    /** {@code Invalid syntax (must be <what>): <current token>}. */
    MgpuException expected(String what);

    /** Whether the current token is the punctuation {@code c}. */
    boolean atPunct(char c);

    /** Consumes the punctuation {@code c} when it is next. */
    boolean optionalPunct(char c);

    /** Consumes the punctuation {@code c}, or throws. */
    void expectPunct(char c);

    /** Consumes {@code ->} when it is next. */
    boolean optionalArrow();

    /** Consumes {@code ->}, or throws. */
    void expectArrow();

    /** Whether the current token is the bare identifier {@code k}. */
    boolean atKeyword(String k);

    /** Consumes the bare identifier {@code k} when it is next. */
    boolean optionalKeyword(String k);

    /** Consumes the bare identifier {@code k}, or throws. */
    void expectKeyword(String k);

    /** The current bare identifier's text without consuming it, or null. */
    String peekKeyword();

    /** Consumes and returns a bare identifier. */
    String keyword();

    /** Whether the current token is a string literal. */
    boolean atString();

    /** Whether the current token is an integer literal (without its sign). */
    boolean atInteger();

    /** Whether the current token is a symbol ({@code @name}). */
    boolean atSymbol();

    /** An optionally negative integer literal. */
    long integer();

    /** A string literal, decoded to its exact bytes. */
    byte[] stringBytes();

    /** A string literal, decoded as UTF-8. */
    String string();

    /** {@code @name}, returned without the {@code @}. */
    String symbolName();

    /** {@code @a::@b::@c}. */
    Attribute.SymbolRefAttr symbolRef();

    /** Any type. */
    Type type();

    /** Whether a type starts at the current token. */
    boolean atType();

    /** {@code (T, ...) -> R}. */
    Type.FunctionType functionType();

    /** {@code T} or {@code (T, ...)}, as after {@code ->}. */
    List<Type> resultTypes();

    /** Types separated by commas, at least one. */
    List<Type> typeList();

    /** Any attribute. */
    Attribute attribute();

    /** {@code {name = value, unitName, ...}}. */
    Map<String, Attribute> dictionary();

    /** An attribute dictionary when one follows, else an empty map. */
    Map<String, Attribute> optionalDictionary();

    /** {@code attributes {...}} when present, else an empty mutable map. */
    Map<String, Attribute> optionalAttributesKeyword();

    /**
     * {@code <key = value, ...>} after a parameterised attribute's name, when present (else an empty
     * map). Each key must be one of {@code allowed} and appear once; {@code what} names the attribute in
     * the error.
     */
    default Map<String, Attribute> parameters(String what, List<String> allowed) {
        Map<String, Attribute> m = new HashMap<>();
        if (!optionalPunct('<')) {
            return m;
        }
        do {
            int off = offset();
            String key = keyword();
            if (!allowed.contains(key)) {
                throw errorAt(off, "Invalid parameter of " + what + " (must be one of "
                        + String.join(", ", allowed) + "): " + key);
            }
            expectPunct('=');
            if (m.put(key, attribute()) != null) {
                throw errorAt(off, "Invalid parameter of " + what + " (must be given once): " + key);
            }
        } while (optionalPunct(','));
        expectPunct('>');
        return m;
    }
}
