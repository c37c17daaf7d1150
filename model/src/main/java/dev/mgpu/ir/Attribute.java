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
        Attribute.DenseArrayAttr, Attribute.StridedLayoutAttr, Attribute.DenseResourceAttr, DialectAttribute {

    UnitAttr UNIT = new UnitAttr();

    /** An integer of a given integer or index type; {@code i1} prints as {@code true}/{@code false}. */
    record IntegerAttr(long value, Type type) implements Attribute {
        public IntegerAttr {
            Objects.requireNonNull(type, "type");
            if (!type.isIntegerOrIndex()) {
                throw new IllegalArgumentException("Invalid integer attribute type (must be an integer or index): "
                        + type);
            }
        }

        public static IntegerAttr i64(long v) {
            return new IntegerAttr(v, Type.I64);
        }

        public static IntegerAttr i32(long v) {
            return new IntegerAttr(v, Type.I32);
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }
    }

    /** A floating-point constant. */
    record FloatAttr(double value, Type type) implements Attribute {
        /** Rounds {@code value} to the precision of {@code type}, so that equal constants are equal. */
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

    /** A string of arbitrary bytes: NUL and non-UTF-8 bytes are kept exactly. */
    record StringAttr(byte[] bytes) implements Attribute {
        public StringAttr {
            Objects.requireNonNull(bytes, "bytes");
        }

        public static StringAttr of(String s) {
            return new StringAttr(s.getBytes(StandardCharsets.UTF_8));
        }

        /** The bytes, not copied: callers must not modify them. */
        @Override
        public byte[] bytes() {
            return bytes;
        }

        public int length() {
            return bytes.length;
        }

        /** The bytes decoded as UTF-8 (lossy for other bytes). */
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

    /** {@code [a, b, ...]}. */
    record ArrayAttr(List<Attribute> elements) implements Attribute {
        public ArrayAttr {
            elements = List.copyOf(elements);
        }

        public int size() {
            return elements.size();
        }

        public Attribute get(int i) {
            return elements.get(i);
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }
    }

    /** {@code {name = value, ...}}, kept sorted by name as MLIR does. */
    record DictionaryAttr(Map<String, Attribute> entries) implements Attribute {
        public static final DictionaryAttr EMPTY = new DictionaryAttr(Map.of());

        public DictionaryAttr {
            entries = Collections.unmodifiableMap(new TreeMap<>(entries));
        }

        public Attribute get(String name) {
            return entries.get(name);
        }

        public boolean isEmpty() {
            return entries.isEmpty();
        }

        @Override
        public String toString() {
            return AsmOutput.render(this);
        }
    }

    /** {@code @root::@nested::@leaf}. */
    record SymbolRefAttr(String root, List<String> nested) implements Attribute {
        public SymbolRefAttr {
            Objects.requireNonNull(root, "root");
            nested = List.copyOf(nested);
        }

        public static SymbolRefAttr of(String root, String... nested) {
            return new SymbolRefAttr(root, List.of(nested));
        }

        /** The last name of the reference. */
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

    /** A type used as an attribute. */
    record TypeAttr(Type type) implements Attribute {
        @Override
        public String toString() {
            return type.toString();
        }
    }

    /** {@code array<i32: 1, 2>}. */
    record DenseArrayAttr(Type elementType, long[] values) implements Attribute {
        public DenseArrayAttr {
            values = values.clone();
        }

        public static DenseArrayAttr i32(int... values) {
            long[] v = new long[values.length];
            for (int i = 0; i < values.length; i++) {
                v[i] = values[i];
            }
            return new DenseArrayAttr(Type.I32, v);
        }

        @Override
        public long[] values() {
            return values.clone();
        }

        public int size() {
            return values.length;
        }

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

    /** {@code strided<[s0, s1], offset: o>}; {@link Type#DYNAMIC} stands for {@code ?}. */
    record StridedLayoutAttr(long offset, long[] strides) implements Attribute {
        public StridedLayoutAttr {
            strides = strides.clone();
        }

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
     */
    record DenseResourceAttr(String handle, Type type) implements Attribute {
        @Override
        public String toString() {
            return AsmOutput.render(this);
        }
    }
}
