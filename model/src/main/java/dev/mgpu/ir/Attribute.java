package dev.mgpu.ir;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An attribute: a compile-time constant attached to an operation. Every implementation is a record, so
 * equality is structural. {@code toString()} gives the MLIR text form.
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
    }

    /** {@code unit}: present or absent, no value. */
    record UnitAttr() implements Attribute {
        @Override
        public String toString() {
            return "unit";
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
    }

    /**
     * {@code dense<...> : tensor<...>}: the elements of a statically shaped tensor, integers ({@link IntegerAttr})
     * or floats ({@link FloatAttr}) of its element type, in row-major order; one element when all are equal (a
     * splat, as upstream keeps it).
     *
     * @param type the tensor type
     * @param elements every element in row-major order, or the one element of a splat
     */
    record DenseElementsAttr(Type.TensorType type, List<Attribute> elements) implements Attribute {
        /**
         * Copies {@code elements}, and makes one element of elements that are all equal.
         *
         * @throws IllegalArgumentException if the tensor's shape is not static, its element type is not an
         *     integer, index or float type, an element is not of that type, or there are neither 1 nor as many
         *     elements as the shape holds
         * @param type the tensor type
         * @param elements every element in row-major order, or the one element of a splat
         */
        public DenseElementsAttr {
            long n = 1;
            for (long d : type.shape()) {
                if (d < 0) {
                    throw new IllegalArgumentException("Invalid dense elements type (must have a static shape): " + type);
                }
                n *= d;
            }
            Type e = type.elementType();
            if (!(e.isIntegerOrIndex() || e instanceof Type.FloatType)) {
                throw new IllegalArgumentException("Invalid dense element type (must be an integer, index or float): "
                        + e);
            }
            if (elements.size() != n && elements.size() != 1) {
                throw new IllegalArgumentException("Invalid dense elements (must be 1 or " + n + "): " + elements.size());
            }
            for (Attribute a : elements) {
                Type at = a instanceof IntegerAttr i ? i.type() : a instanceof FloatAttr f ? f.type() : null;
                if (!e.equals(at)) {
                    throw new IllegalArgumentException("Invalid dense element (must be of type " + e + "): " + a);
                }
            }
            elements = elements.size() > 1 && elements.stream().allMatch(elements.get(0)::equals)
                    ? List.of(elements.get(0)) : List.copyOf(elements);
        }

        /** {@return whether every element is the one held} */
        public boolean isSplat() {
            return elements.size() == 1;
        }

        /** {@return how many elements the tensor holds} */
        public long count() {
            long n = 1;
            for (long d : type.shape()) {
                n *= d;
            }
            return n;
        }

        /**
         * Returns element {@code i} in row-major order.
         *
         * @param i the index, from 0
         * @return the element
         */
        public Attribute get(long i) {
            return elements.get(isSplat() ? 0 : (int) i);
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }
    }
}
