package dev.mgpu.ir;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A type of the IR. Every implementation is a record, so equality is structural. {@code toString()}
 * gives the MLIR text form.
 *
 * <p>Each record spells its {@code equals} and {@code hashCode} out, as every {@link Attribute} and
 * {@link Location} does: a record's own are made at run time from method handles, the first time any is
 * called (some 10 ms of a small run, and 2-4 ms for each record after it, which no class-data archive of
 * JDK 17 keeps), and the quick compiler calls them rather than inlines them.
 */
public sealed interface Type
        permits Type.IntegerType, Type.IndexType, Type.FloatType, Type.FunctionType, Type.MemRefType,
        Type.UnrankedMemRefType, Type.AsyncTokenType, Type.LLVMPointerType, Type.LLVMStructType,
        Type.LLVMArrayType, Type.LLVMFunctionType, Type.TensorType, Type.VectorType, Type.LLVMVoidType, Type.NoneType {

    /** The marker for a dynamic dimension, offset or stride ({@code ?}). */
    long DYNAMIC = Long.MIN_VALUE;

    /** {@code i1}, the type of booleans. */
    IntegerType I1 = new IntegerType(1);
    /** {@code i8}. */
    IntegerType I8 = new IntegerType(8);
    /** {@code i16}. */
    IntegerType I16 = new IntegerType(16);
    /** {@code i32}. */
    IntegerType I32 = new IntegerType(32);
    /** {@code i64}. */
    IntegerType I64 = new IntegerType(64);
    /** {@code index}. */
    IndexType INDEX = new IndexType();
    /** {@code f16}. */
    FloatType F16 = new FloatType(FloatType.Kind.F16);
    /** {@code bf16}. */
    FloatType BF16 = new FloatType(FloatType.Kind.BF16);
    /** {@code f32}. */
    FloatType F32 = new FloatType(FloatType.Kind.F32);
    /** {@code f64}. */
    FloatType F64 = new FloatType(FloatType.Kind.F64);
    /** {@code !gpu.async.token}. */
    AsyncTokenType ASYNC_TOKEN = new AsyncTokenType();
    /** {@code !llvm.ptr}, in address space 0. */
    LLVMPointerType PTR = new LLVMPointerType(0);
    /** {@code !llvm.void}. */
    LLVMVoidType VOID = new LLVMVoidType();
    /** {@code none}. */
    NoneType NONE = new NoneType();

    /**
     * Whether this is a signless integer or {@code index}.
     *
     * @return true for an {@link IntegerType} or {@link IndexType}
     */
    default boolean isIntegerOrIndex() {
        return this instanceof IntegerType || this instanceof IndexType;
    }

    /**
     * A signless integer {@code iN}.
     *
     * @param width the number of bits, 1 to {@link #MAX_WIDTH}
     */
    record IntegerType(int width) implements Type {
        /** The widest integer MLIR's types take, 2^24 - 1 bits (LLVM's IR takes up to 2^23). */
        public static final int MAX_WIDTH = (1 << 24) - 1;

        /**
         * Checks the width.
         *
         * @throws IllegalArgumentException if {@code width} is below 1 or above {@link #MAX_WIDTH}
         * @param width the number of bits, 1 to {@link #MAX_WIDTH}
         */
        public IntegerType {
            if (width < 1 || width > MAX_WIDTH) {
                throw new IllegalArgumentException("Invalid integer width (must be 1 to " + MAX_WIDTH + "): " + width);
            }
        }

        /** The names of the integer types up to i128, made once: the printer asks for one per value it types. */
        private static final String[] NAMES = new String[129];

        static {
            for (int w = 1; w < NAMES.length; w++) {
                NAMES[w] = "i" + w;
            }
        }

        @Override
        public String toString() {
            return width < NAMES.length ? NAMES[width] : "i" + width;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof IntegerType t && t.width == width;
        }

        @Override
        public int hashCode() {
            return width;
        }
    }

    /** {@code index}: an integer as wide as the target's pointers. */
    record IndexType() implements Type {
        @Override
        public String toString() {
            return "index";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof IndexType;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    /**
     * A floating-point type.
     *
     * @param kind the format
     */
    record FloatType(Kind kind) implements Type {
        /** The supported float formats. */
        public enum Kind {
            /** IEEE half precision, {@code f16}. */
            F16("f16", 16),
            /** bfloat16, {@code bf16}. */
            BF16("bf16", 16),
            /** IEEE single precision, {@code f32}. */
            F32("f32", 32),
            /** IEEE double precision, {@code f64}. */
            F64("f64", 64);

            final String text;
            final int width;

            Kind(String text, int width) {
                this.text = text;
                this.width = width;
            }
        }

        /**
         * Returns the number of bits of the format.
         *
         * @return 16, 32 or 64
         */
        public int width() {
            return kind.width;
        }

        @Override
        public String toString() {
            return kind.text;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof FloatType t && t.kind == kind;
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(kind);
        }
    }

    /**
     * {@code (inputs) -> results}.
     *
     * @param inputs the argument types
     * @param results the result types
     */
    record FunctionType(List<Type> inputs, List<Type> results) implements Type {
        /**
         * Copies the lists.
         *
         * @throws NullPointerException if a list or one of its elements is null
         * @param inputs the argument types
         * @param results the result types
         */
        public FunctionType {
            inputs = List.copyOf(inputs);
            results = List.copyOf(results);
        }

        @Override
        public String toString() {
            return TypeText.function(this);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof FunctionType other && Objects.equals(inputs, other.inputs)
                    && Objects.equals(results, other.results);
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hashCode(inputs) + Objects.hashCode(results);
        }
    }

    /**
     * A ranked memref. {@code shape} holds {@link #DYNAMIC} for {@code ?}. {@code layout} is null for the
     * identity layout, else a {@link Attribute.StridedLayoutAttr}. {@code memorySpace} is null for the default.
     *
     * @param shape the dimensions, {@link #DYNAMIC} for {@code ?}; copied
     * @param elementType the element type
     * @param layout the layout, or null for the identity
     * @param memorySpace the memory space, or null for the default
     */
    record MemRefType(long[] shape, Type elementType, Attribute layout, Attribute memorySpace) implements Type {
        /**
         * Copies {@code shape}.
         *
         * @param shape the dimensions, {@link #DYNAMIC} for {@code ?}; copied
         * @param elementType the element type
         * @param layout the layout, or null for the identity
         * @param memorySpace the memory space, or null for the default
         */
        public MemRefType {
            shape = shape.clone();
        }

        /**
         * Returns the number of dimensions.
         *
         * @return the rank, 0 or more
         */
        public int rank() {
            return shape.length;
        }

        /**
         * Returns the dimensions.
         *
         * @return a copy of the shape, {@link #DYNAMIC} for {@code ?}
         */
        public long[] shape() {
            return shape.clone();
        }

        /**
         * Returns dimension {@code i}.
         *
         * @param i the dimension, from 0
         * @return its size, or {@link #DYNAMIC}
         * @throws ArrayIndexOutOfBoundsException if there is no such dimension
         */
        public long dim(int i) {
            return shape[i];
        }

        /**
         * Returns how many dimensions are dynamic.
         *
         * @return the number of {@link #DYNAMIC} dimensions
         */
        public int dynamicDimCount() {
            int n = 0;
            for (long d : shape) {
                if (d == DYNAMIC) {
                    n++;
                }
            }
            return n;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof MemRefType m && Arrays.equals(shape, m.shape) && elementType.equals(m.elementType)
                    && java.util.Objects.equals(layout, m.layout) && java.util.Objects.equals(memorySpace, m.memorySpace);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(shape) * 31 + elementType.hashCode();
        }

        @Override
        public String toString() {
            return TypeText.memref(this);
        }
    }

    /**
     * {@code memref<*xT>}.
     *
     * @param elementType the element type
     * @param memorySpace the memory space, or null for the default
     */
    record UnrankedMemRefType(Type elementType, Attribute memorySpace) implements Type {
        @Override
        public String toString() {
            return "memref<*x" + elementType + (memorySpace == null ? "" : ", " + TypeText.memorySpace(memorySpace)) + ">";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof UnrankedMemRefType other && Objects.equals(elementType, other.elementType)
                    && Objects.equals(memorySpace, other.memorySpace);
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hashCode(elementType) + Objects.hashCode(memorySpace);
        }
    }

    /** {@code !gpu.async.token}: at run time, a stream. */
    record AsyncTokenType() implements Type {
        @Override
        public String toString() {
            return "!gpu.async.token";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof AsyncTokenType;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    /**
     * {@code !llvm.ptr} or {@code !llvm.ptr<N>}.
     *
     * @param addressSpace the address space, 0 for the default
     */
    record LLVMPointerType(int addressSpace) implements Type {
        @Override
        public String toString() {
            return addressSpace == 0 ? "!llvm.ptr" : "!llvm.ptr<" + addressSpace + ">";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof LLVMPointerType t && t.addressSpace == addressSpace;
        }

        @Override
        public int hashCode() {
            return addressSpace;
        }
    }

    /**
     * {@code !llvm.struct<(T, ...)>}, possibly packed.
     *
     * @param body the field types
     * @param packed whether the struct has no padding between fields
     */
    record LLVMStructType(List<Type> body, boolean packed) implements Type {
        /**
         * Copies {@code body}.
         *
         * @throws NullPointerException if {@code body} or one of its elements is null
         * @param body the field types
         * @param packed whether the struct has no padding between fields
         */
        public LLVMStructType {
            body = List.copyOf(body);
        }

        @Override
        public String toString() {
            return TypeText.struct(this);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof LLVMStructType other && Objects.equals(body, other.body) && packed == other.packed;
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hashCode(body) + Boolean.hashCode(packed);
        }
    }

    /**
     * {@code !llvm.array<N x T>}.
     *
     * @param size the number of elements
     * @param elementType the element type
     */
    record LLVMArrayType(long size, Type elementType) implements Type {
        @Override
        public String toString() {
            return "!llvm.array<" + size + " x " + elementType + ">";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof LLVMArrayType other && size == other.size
                    && Objects.equals(elementType, other.elementType);
        }

        @Override
        public int hashCode() {
            return 31 * Long.hashCode(size) + Objects.hashCode(elementType);
        }
    }

    /**
     * {@code !llvm.func<R (A, ...)>}, the type of an {@code llvm.func} as the llvm dialect states it (the
     * generic form of {@code llvm.func} carries it); a void result prints as {@code void}.
     *
     * @param result the result type, {@link LLVMVoidType} for none
     * @param params the parameter types
     * @param varArg whether the function takes more arguments after {@code params}
     */
    record LLVMFunctionType(Type result, List<Type> params, boolean varArg) implements Type {
        /**
         * Copies {@code params}.
         *
         * @throws NullPointerException if {@code params} or one of its elements is null
         * @param result the result type, {@link LLVMVoidType} for none
         * @param params the parameter types
         * @param varArg whether the function takes more arguments after {@code params}
         */
        public LLVMFunctionType {
            params = List.copyOf(params);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("!llvm.func<");
            sb.append(result instanceof LLVMVoidType ? "void" : result.toString()).append(" (");
            for (int i = 0; i < params.size(); i++) {
                sb.append(i > 0 ? ", " : "").append(params.get(i));
            }
            if (varArg) {
                sb.append(params.isEmpty() ? "..." : ", ...");
            }
            return sb.append(")>").toString();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof LLVMFunctionType other && Objects.equals(result, other.result)
                    && Objects.equals(params, other.params) && varArg == other.varArg;
        }

        @Override
        public int hashCode() {
            int h = Objects.hashCode(result);
            h = 31 * h + Objects.hashCode(params);
            return 31 * h + Boolean.hashCode(varArg);
        }
    }

    /**
     * {@code tensor<4x?xf32>}: a value of a shape, held in the model so that constants such as
     * {@code dense_resource<...> : tensor<...>} read and print; host code does not compute with tensors.
     *
     * @param shape the dimensions, {@link #DYNAMIC} for {@code ?}
     * @param elementType the element type
     */
    record TensorType(long[] shape, Type elementType) implements Type {
        @Override
        public boolean equals(Object o) {
            return o instanceof TensorType t && java.util.Arrays.equals(shape, t.shape) && elementType.equals(t.elementType);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(shape) * 31 + elementType.hashCode();
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("tensor<");
            for (long d : shape) {
                sb.append(d == DYNAMIC ? "?" : Long.toString(d)).append('x');
            }
            return sb.append(elementType).append('>').toString();
        }
    }

    /**
     * {@code vector<4xf32>}: a fixed number of elements, held as one value (host code reads and prints them).
     *
     * @param shape the dimensions, each static
     * @param elementType the element type
     */
    record VectorType(long[] shape, Type elementType) implements Type {
        /** {@return the number of elements} */
        public long count() {
            long n = 1;
            for (long d : shape) {
                n *= d;
            }
            return n;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof VectorType t && java.util.Arrays.equals(shape, t.shape) && elementType.equals(t.elementType);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(shape) * 37 + elementType.hashCode();
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("vector<");
            for (long d : shape) {
                sb.append(d).append('x');
            }
            return sb.append(elementType).append('>').toString();
        }
    }

    /** {@code !llvm.void}. */
    record LLVMVoidType() implements Type {
        @Override
        public String toString() {
            return "!llvm.void";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof LLVMVoidType;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    /** {@code none}. */
    record NoneType() implements Type {
        @Override
        public String toString() {
            return "none";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof NoneType;
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }
}
