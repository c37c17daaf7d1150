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
    /**
     * The location of the current token.
     *
     * @return the location
     */
    Location location();

    /**
     * The location of a byte offset of the input, as returned by {@link #offset()}.
     *
     * @param offset a byte offset of the input
     * @return the location, with its line and column
     */
    Location locationOf(int offset);

    /**
     * The byte offset of the current token, to locate a later error at it.
     *
     * @return the offset
     */
    int offset();

    /**
     * An error at the current token.
     *
     * @param message what is wrong
     * @return the exception, not thrown
     */
    MgpuException error(String message);

    /**
     * An error at an earlier offset.
     *
     * @param offset the byte offset to locate the error at
     * @param message what is wrong
     * @return the exception, not thrown
     */
    MgpuException errorAt(int offset, String message);

    /**
     * {@code Invalid syntax (must be <what>): <current token>}.
     *
     * @param what what the syntax must be
     * @return the exception, not thrown
     */
    MgpuException expected(String what);

    /**
     * Whether the current token is the punctuation {@code c}.
     *
     * @param c the punctuation
     * @return true if it is next
     */
    boolean atPunct(char c);

    /**
     * Consumes the punctuation {@code c} when it is next.
     *
     * @param c the punctuation
     * @return true if it was consumed
     */
    boolean optionalPunct(char c);

    /**
     * Consumes the punctuation {@code c}, or throws.
     *
     * @param c the punctuation
     * @throws MgpuException if it is not next
     */
    void expectPunct(char c);

    /**
     * Consumes {@code ->} when it is next.
     *
     * @return true if it was consumed
     */
    boolean optionalArrow();

    /** Consumes {@code ->}, or throws. */
    void expectArrow();

    /**
     * Whether the current token is the bare identifier {@code k}.
     *
     * @param k the identifier
     * @return true if it is next
     */
    boolean atKeyword(String k);

    /**
     * Consumes the bare identifier {@code k} when it is next.
     *
     * @param k the identifier
     * @return true if it was consumed
     */
    boolean optionalKeyword(String k);

    /**
     * Consumes the bare identifier {@code k}, or throws.
     *
     * @param k the identifier
     * @throws MgpuException if it is not next
     */
    void expectKeyword(String k);

    /**
     * The current bare identifier's text without consuming it, or null.
     *
     * @return the identifier, or null if the current token is not one
     */
    String peekKeyword();

    /**
     * Consumes and returns a bare identifier.
     *
     * @return the identifier
     * @throws MgpuException if the current token is not a bare identifier
     */
    String keyword();

    /**
     * Whether the current token is a string literal.
     *
     * @return true if it is
     */
    boolean atString();

    /**
     * Whether the current token is an integer literal (without its sign).
     *
     * @return true if it is
     */
    boolean atInteger();

    /**
     * Whether the current token is a symbol ({@code @name}).
     *
     * @return true if it is
     */
    boolean atSymbol();

    /**
     * An optionally negative integer literal.
     *
     * @return the value
     * @throws MgpuException if the current token is not an integer or it does not fit a {@code long}
     */
    long integer();

    /**
     * A string literal, decoded to its exact bytes.
     *
     * @return the bytes
     * @throws MgpuException if the current token is not a string literal
     */
    byte[] stringBytes();

    /**
     * A string literal, decoded as UTF-8.
     *
     * @return the string
     * @throws MgpuException if the current token is not a string literal
     */
    String string();

    /**
     * {@code @name}, returned without the {@code @}.
     *
     * @return the name
     * @throws MgpuException if the current token is not a symbol
     */
    String symbolName();

    /**
     * {@code @a::@b::@c}.
     *
     * @return the reference
     * @throws MgpuException if the current token is not a symbol
     */
    Attribute.SymbolRefAttr symbolRef();

    /**
     * Any type.
     *
     * @return the type
     * @throws MgpuException if no valid type is next
     */
    Type type();

    /**
     * Whether a type starts at the current token.
     *
     * @return true if one does
     */
    boolean atType();

    /**
     * {@code (T, ...) -> R}.
     *
     * @return the function type
     * @throws MgpuException if no valid function type is next
     */
    Type.FunctionType functionType();

    /**
     * {@code T} or {@code (T, ...)}, as after {@code ->}.
     *
     * @return the types, none for {@code ()}
     * @throws MgpuException if no valid result types are next
     */
    List<Type> resultTypes();

    /**
     * Types separated by commas, at least one.
     *
     * @return the types
     * @throws MgpuException if no valid type list is next
     */
    List<Type> typeList();

    /**
     * Any attribute.
     *
     * @return the attribute
     * @throws MgpuException if no valid attribute is next
     */
    Attribute attribute();

    /**
     * {@code dense<...>} of elements of {@code type}, which the context gives (no {@code : type} follows).
     *
     * @param type the tensor type of the elements
     * @return the attribute
     * @throws dev.mgpu.ir.MgpuException if no valid {@code dense<...>} of that type is next
     */
    Attribute.DenseElementsAttr denseElements(Type.TensorType type);

    /**
     * {@code {name = value, unitName, ...}}.
     *
     * @return the attributes by name, in order
     * @throws MgpuException if no valid dictionary is next
     */
    Map<String, Attribute> dictionary();

    /**
     * An attribute dictionary when one follows, else an empty map.
     *
     * @return the attributes by name, in order
     * @throws MgpuException if a dictionary starts but is not valid
     */
    Map<String, Attribute> optionalDictionary();

    /**
     * {@code attributes {...}} when present, else an empty mutable map.
     *
     * @return the attributes by name, in order
     * @throws MgpuException if the keyword is not followed by a valid dictionary
     */
    Map<String, Attribute> optionalAttributesKeyword();

    /**
     * {@code <key = value, ...>} after a parameterised attribute's name, when present (else an empty
     * map). Each key must be one of {@code allowed} and appear once; {@code what} names the attribute in
     * the error.
     *
     * @param what the attribute's name, for errors
     * @param allowed the keys accepted
     * @return the parameters by key, mutable
     * @throws MgpuException if a key is not allowed or repeated, or the parameters are not valid
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
