package dev.mgpu.ir;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

// The builtin attributes, a record each with its checks, accessors and equality, read as a table: one file.
/**
 * An attribute: a compile-time constant attached to an operation. Every implementation is a record, so
 * equality is structural; each spells its {@code equals} and {@code hashCode} out, as {@link Type}'s do.
 * {@code toString()} gives the MLIR text form.
 */
public sealed interface Attribute
        permits Attribute.IntegerAttr, Attribute.FloatAttr, Attribute.StringAttr, Attribute.ArrayAttr,
        Attribute.DictionaryAttr, Attribute.SymbolRefAttr, Attribute.UnitAttr, Attribute.TypeAttr,
        Attribute.DenseArrayAttr, Attribute.StridedLayoutAttr, Attribute.DenseResourceAttr,
        Attribute.DenseElementsAttr, DialectAttribute {

    /** The {@code unit} attribute. */
    UnitAttr UNIT = new UnitAttr();

    /**
     * An integer of a given integer or index type; {@code i1} prints as {@code true}/{@code false}.
     *
     * @param value the value, as a signed 64-bit number
     * @param type its integer or index type
     */
    record IntegerAttr(long value, Type type) implements Attribute {
        /**
         * Checks the type.
         *
         * @throws NullPointerException if {@code type} is null
         * @throws IllegalArgumentException if {@code type} is not an integer or index type
         * @param value the value, as a signed 64-bit number
         * @param type its integer or index type
         */
        public IntegerAttr {
            Objects.requireNonNull(type, "type");
            if (!type.isIntegerOrIndex()) {
                throw new IllegalArgumentException("Invalid integer attribute type (must be an integer or index): "
                        + type);
            }
        }

        /**
         * Returns an {@code i64} integer.
         *
         * @param v the value
         * @return the attribute
         */
        public static IntegerAttr i64(long v) {
            return new IntegerAttr(v, Type.I64);
        }

        /**
         * Returns an {@code i32} integer.
         *
         * @param v the value; not truncated
         * @return the attribute
         */
        public static IntegerAttr i32(long v) {
            return new IntegerAttr(v, Type.I32);
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof IntegerAttr other && value == other.value && Objects.equals(type, other.type);
        }

        @Override
        public int hashCode() {
            return 31 * Long.hashCode(value) + Objects.hashCode(type);
        }
    }

    /**
     * A floating-point constant.
     *
     * @param value the value
     * @param type its float type
     */
    record FloatAttr(double value, Type type) implements Attribute {
        /**
         * Rounds {@code value} to the precision of {@code type}, so that equal constants are equal.
         *
         * @throws IllegalArgumentException if {@code type} is not a float type
         * @param value the value
         * @param type its float type
         */
        public FloatAttr {
            if (!(type instanceof Type.FloatType ft)) {
                throw new IllegalArgumentException("Invalid float attribute type (must be a float type): " + type);
            }
            value = FloatBits.round(value, ft);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof FloatAttr f && Double.doubleToRawLongBits(value) == Double.doubleToRawLongBits(f.value)
                    && type.equals(f.type);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(Double.doubleToRawLongBits(value)) * 31 + type.hashCode();
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }
    }

    /**
     * A string of arbitrary bytes: NUL and non-UTF-8 bytes are kept exactly.
     *
     * @param bytes the bytes; not copied
     */
    record StringAttr(byte[] bytes) implements Attribute {
        /**
         * Checks that there are bytes.
         *
         * @throws NullPointerException if {@code bytes} is null
         * @param bytes the bytes; not copied
         */
        public StringAttr {
            Objects.requireNonNull(bytes, "bytes");
        }

        /**
         * Returns the UTF-8 encoding of {@code s} as a string attribute.
         *
         * @param s the string
         * @return the attribute
         */
        public static StringAttr of(String s) {
            return new StringAttr(s.getBytes(StandardCharsets.UTF_8));
        }

        /**
         * The bytes, not copied: callers must not modify them.
         *
         * @return the bytes
         */
        @Override
        public byte[] bytes() {
            return bytes;
        }

        /**
         * Returns the number of bytes.
         *
         * @return the length in bytes
         */
        public int length() {
            return bytes.length;
        }

        /**
         * The bytes decoded as UTF-8 (lossy for other bytes).
         *
         * @return the string
         */
        public String value() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof StringAttr s && Arrays.equals(bytes, s.bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }
    }

    /**
     * {@code [a, b, ...]}.
     *
     * @param elements the elements
     */
    record ArrayAttr(List<Attribute> elements) implements Attribute {
        /**
         * Copies {@code elements}.
         *
         * @throws NullPointerException if {@code elements} or one of its elements is null
         * @param elements the elements
         */
        public ArrayAttr {
            elements = List.copyOf(elements);
        }

        /**
         * Returns the number of elements.
         *
         * @return the size
         */
        public int size() {
            return elements.size();
        }

        /**
         * Returns element {@code i}.
         *
         * @param i the index, from 0
         * @return the element
         * @throws IndexOutOfBoundsException if there is no such element
         */
        public Attribute get(int i) {
            return elements.get(i);
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ArrayAttr other && Objects.equals(elements, other.elements);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(elements);
        }
    }

    /**
     * {@code {name = value, ...}}, kept sorted by name as MLIR does.
     *
     * @param entries the entries, by name
     */
    record DictionaryAttr(Map<String, Attribute> entries) implements Attribute {
        /** The empty dictionary. */
        public static final DictionaryAttr EMPTY = new DictionaryAttr(Map.of());

        /**
         * Copies {@code entries} into an unmodifiable map sorted by name.
         *
         * @throws NullPointerException if {@code entries} or a key in it is null
         * @param entries the entries, by name
         */
        public DictionaryAttr {
            entries = Collections.unmodifiableMap(new TreeMap<>(entries));
        }

        /**
         * Returns the entry named {@code name}.
         *
         * @param name the entry's name
         * @return its value, or null when there is none
         */
        public Attribute get(String name) {
            return entries.get(name);
        }

        /**
         * Returns whether the dictionary has no entries.
         *
         * @return true when there are none
         */
        public boolean isEmpty() {
            return entries.isEmpty();
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof DictionaryAttr other && Objects.equals(entries, other.entries);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(entries);
        }
    }

    /**
     * {@code @root::@nested::@leaf}.
     *
     * @param root the first name, looked up from the referring op outwards
     * @param nested the names that follow, each looked up in the symbol table of the one before
     */
    record SymbolRefAttr(String root, List<String> nested) implements Attribute {
        /**
         * Copies {@code nested}.
         *
         * @throws NullPointerException if {@code root}, {@code nested} or a name in it is null
         * @param root the first name, looked up from the referring op outwards
         * @param nested the names that follow, each looked up in the symbol table of the one before
         */
        public SymbolRefAttr {
            Objects.requireNonNull(root, "root");
            nested = List.copyOf(nested);
        }

        /**
         * Returns a reference to {@code @root::@nested...}.
         *
         * @param root the first name
         * @param nested the names that follow
         * @return the reference
         */
        public static SymbolRefAttr of(String root, String... nested) {
            return new SymbolRefAttr(root, List.of(nested));
        }

        /**
         * The last name of the reference.
         *
         * @return the last nested name, or {@code root} when there is none
         */
        public String leaf() {
            return nested.isEmpty() ? root : nested.get(nested.size() - 1);
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof SymbolRefAttr other && Objects.equals(root, other.root)
                    && Objects.equals(nested, other.nested);
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hashCode(root) + Objects.hashCode(nested);
        }
    }

    /** {@code unit}: present or absent, no value. */
    record UnitAttr() implements Attribute {
        @Override
        public String toString() {
            return "unit";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof UnitAttr;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    /**
     * A type used as an attribute.
     *
     * @param type the type
     */
    record TypeAttr(Type type) implements Attribute {
        @Override
        public String toString() {
            return type.toString();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof TypeAttr other && Objects.equals(type, other.type);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(type);
        }
    }

    /**
     * {@code array<i32: 1, 2>}.
     *
     * @param elementType the element type, such as {@code i32}
     * @param values the elements, widened to {@code long}; copied
     */
    record DenseArrayAttr(Type elementType, long[] values) implements Attribute {
        /**
         * Copies {@code values}.
         *
         * @param elementType the element type, such as {@code i32}
         * @param values the elements, widened to {@code long}; copied
         */
        public DenseArrayAttr {
            values = values.clone();
        }

        /**
         * Returns an {@code array<i32: ...>} of {@code values}.
         *
         * @param values the elements
         * @return the attribute
         */
        public static DenseArrayAttr i32(int... values) {
            long[] v = new long[values.length];
            for (int i = 0; i < values.length; i++) {
                v[i] = values[i];
            }
            return new DenseArrayAttr(Type.I32, v);
        }

        /**
         * Returns the elements.
         *
         * @return a copy of the elements
         */
        @Override
        public long[] values() {
            return values.clone();
        }

        /**
         * Returns the number of elements.
         *
         * @return the size
         */
        public int size() {
            return values.length;
        }

        /**
         * Returns element {@code i}.
         *
         * @param i the index, from 0
         * @return the element
         * @throws ArrayIndexOutOfBoundsException if there is no such element
         */
        public long get(int i) {
            return values[i];
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof DenseArrayAttr d && elementType.equals(d.elementType) && Arrays.equals(values, d.values);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(values);
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }
    }

    /**
     * {@code strided<[s0, s1], offset: o>}; {@link Type#DYNAMIC} stands for {@code ?}.
     *
     * @param offset the offset, or {@link Type#DYNAMIC}
     * @param strides one stride per dimension, {@link Type#DYNAMIC} for {@code ?}; copied
     */
    record StridedLayoutAttr(long offset, long[] strides) implements Attribute {
        /**
         * Copies {@code strides}.
         *
         * @param offset the offset, or {@link Type#DYNAMIC}
         * @param strides one stride per dimension, {@link Type#DYNAMIC} for {@code ?}; copied
         */
        public StridedLayoutAttr {
            strides = strides.clone();
        }

        /**
         * Returns the strides.
         *
         * @return a copy of the strides
         */
        @Override
        public long[] strides() {
            return strides.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof StridedLayoutAttr s && offset == s.offset && Arrays.equals(strides, s.strides);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(strides) + Long.hashCode(offset);
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }
    }

    /**
     * {@code dense_resource<handle> : tensor<...>}: a constant whose data lives in the file's resource
     * section under {@code handle}.
     *
     * @param handle the resource's key in the file's resource section
     * @param type the constant's type, usually a tensor type
     */
    record DenseResourceAttr(String handle, Type type) implements Attribute {
        @Override
        public String toString() {
            return AsmOutput.render(this);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof DenseResourceAttr other && Objects.equals(handle, other.handle)
                    && Objects.equals(type, other.type);
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hashCode(handle) + Objects.hashCode(type);
        }
    }

    /**
     * {@code dense<...> : tensor<...>}: the elements of a statically shaped tensor of integers or floats, in
     * row-major order, held as their bits (an integer's value as {@link IntegerAttr} holds it, a float's
     * IEEE bits), eight bytes an element however many there are; one element when all are equal (a splat, as
     * upstream keeps it).
     *
     * @param type the tensor type
     * @param bits every element's bits in row-major order, or the one element's of a splat
     */
    record DenseElementsAttr(Type.TensorType type, long[] bits) implements Attribute {
        /**
         * Checks the type and count, and makes one element of elements that are all equal.
         *
         * @throws IllegalArgumentException if the tensor's shape is not static, holds 2^63 elements or more,
         *     its element type is not an integer, index or float type, or there are neither 1 nor as many
         *     elements as the shape holds
         * @param type the tensor type
         * @param bits every element's bits in row-major order, or the one element's of a splat
         */
        public DenseElementsAttr {
            long n = count(type);
            Type e = type.elementType();
            if (!(e.isIntegerOrIndex() || e instanceof Type.FloatType)) {
                throw new IllegalArgumentException("Invalid dense element type (must be an integer, index or float): "
                        + e);
            }
            if (bits.length != n && bits.length != 1) {
                throw new IllegalArgumentException("Invalid dense elements (must be 1 or " + n + "): " + bits.length);
            }
            boolean splat = bits.length > 1;
            for (int k = 1; k < bits.length && splat; k++) {
                splat = bits[k] == bits[0];
            }
            bits = splat ? new long[] {bits[0]} : bits.clone();
        }

        /**
         * Makes the attribute of {@code elements}, each an {@link IntegerAttr} or {@link FloatAttr} of the
         * tensor's element type.
         *
         * @param type the tensor type
         * @param elements every element in row-major order, or the one element of a splat
         * @return the attribute
         * @throws IllegalArgumentException if an element is not of the element type, or as the constructor
         */
        public static DenseElementsAttr of(Type.TensorType type, List<Attribute> elements) {
            long[] bits = new long[elements.size()];
            for (int k = 0; k < bits.length; k++) {
                Attribute a = elements.get(k);
                if (a instanceof IntegerAttr i && i.type().equals(type.elementType())) {
                    bits[k] = i.value();
                } else if (a instanceof FloatAttr f && f.type().equals(type.elementType())) {
                    bits[k] = FloatBits.bits(f.value(), (Type.FloatType) f.type());
                } else {
                    throw new IllegalArgumentException("Invalid dense element (must be of type " + type.elementType()
                            + "): " + a);
                }
            }
            return new DenseElementsAttr(type, bits);
        }

        private static long count(Type.TensorType type) {
            long n = 1;
            for (long d : type.shape()) {
                if (d < 0) {
                    throw new IllegalArgumentException("Invalid dense elements type (must have a static shape): "
                            + type);
                }
                try {
                    n = Math.multiplyExact(n, d);
                } catch (ArithmeticException e) {
                    throw new IllegalArgumentException("Invalid dense elements type (must hold fewer than 2^63"
                            + " elements): " + type);
                }
            }
            return n;
        }

        /** {@return whether every element is the one held} */
        public boolean isSplat() {
            return bits.length == 1;
        }

        /** {@return how many elements the tensor holds} */
        public long count() {
            return count(type);
        }

        /**
         * Returns the bits of element {@code i} in row-major order.
         *
         * @param i the index, from 0
         * @return an integer's value, sign-extended ({@code i1}: 0 or 1), or a float's IEEE bits
         */
        public long bitsOf(long i) {
            return bits[isSplat() ? 0 : (int) i];
        }

        /**
         * Returns element {@code i} in row-major order.
         *
         * @param i the index, from 0
         * @return the element, an {@link IntegerAttr} or {@link FloatAttr}
         */
        public Attribute get(long i) {
            long b = bitsOf(i);
            return type.elementType() instanceof Type.FloatType f ? new FloatAttr(FloatBits.fromBits(b, f), f)
                    : new IntegerAttr(b, type.elementType());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof DenseElementsAttr d && type.equals(d.type) && Arrays.equals(bits, d.bits);
        }

        @Override
        public int hashCode() {
            return type.hashCode() * 31 + Arrays.hashCode(bits);
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }
    }
}
