package dev.mgpu.dialect;

import dev.mgpu.dialect.cf.Cf;
import dev.mgpu.dialect.gpu.AddressSpaceAttr;
import dev.mgpu.dialect.gpu.AllReduceOp;
import dev.mgpu.dialect.gpu.BarrierOp;
import dev.mgpu.dialect.gpu.DimensionOp;
import dev.mgpu.dialect.gpu.DynamicSharedMemoryOp;
import dev.mgpu.dialect.gpu.GpuFuncOp;
import dev.mgpu.dialect.gpu.GpuModuleOp;
import dev.mgpu.dialect.gpu.GpuReturnOp;
import dev.mgpu.dialect.gpu.LaneOps;
import dev.mgpu.dialect.gpu.PrintfOp;
import dev.mgpu.dialect.gpu.ShuffleOp;
import dev.mgpu.dialect.gpu.SubgroupReduceOp;
import dev.mgpu.dialect.memref.Allocations;
import dev.mgpu.dialect.memref.MemRef;
import dev.mgpu.dialect.memref.Views;
import dev.mgpu.dialect.scf.Scf;
import dev.mgpu.ir.Block;
import dev.mgpu.ir.Location;
import dev.mgpu.ir.MgpuException;
import dev.mgpu.ir.Operation;
import dev.mgpu.ir.Type;
import dev.mgpu.ir.Value;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Builds the body of a {@code gpu.func} at the end of a block, for Java code generators: the gpu ops of
 * kernels (thread and block indices, lanes, barriers, shuffles, reductions, printf, {@code gpu.return}),
 * memref accesses and views, {@code scf} loops and branches, {@code arith} and {@code math}, and
 * {@code cf.assert}. Each method checks what it is given and throws an {@link MgpuException} at the
 * builder's location, with the verifier's kind of message, before it builds an op that could not verify;
 * each appends one op and returns its result (or the op when it has none, or several).
 *
 * <pre>{@code
 * GpuFuncOp f = KernelBuilder.kernel(gpuModule, loc, "scale", List.of(vec, Type.F32), List.of(), List.of());
 * KernelBuilder b = KernelBuilder.atEnd(f.body(), loc);
 * Value i = b.threadId(0);
 * b.store(b.arith("mulf", b.load(f.body().argument(0), i), f.body().argument(1)), f.body().argument(0), i);
 * b.gpuReturn();
 * }</pre>
 */
public final class KernelBuilder extends ScalarBuilder {
    private KernelBuilder(Block block, Location location) {
        super(block, location);
    }

    /**
     * A builder that appends to {@code block}, giving new ops {@code location}.
     *
     * @param block the block to append to, in a {@code gpu.func} or to be put in one
     * @param location the location of the ops built, and of the errors thrown
     * @return the builder
     */
    public static KernelBuilder atEnd(Block block, Location location) {
        return new KernelBuilder(block, location);
    }

    /**
     * A builder at the end of another block (a loop's or a branch's body), at this builder's location.
     *
     * @param inner the block to append to
     * @return the new builder
     */
    public KernelBuilder into(Block inner) {
        return new KernelBuilder(inner, location);
    }

    /**
     * Sets the location of the ops built from now on.
     *
     * @param loc the location
     * @return this builder
     */
    public KernelBuilder at(Location loc) {
        this.location = loc;
        return this;
    }

    /**
     * The block this builder appends to.
     *
     * @return the block
     */
    public Block block() {
        return block;
    }

    /**
     * Appends a kernel to {@code module}: a {@code gpu.func} marked {@code kernel}, whose entry block's
     * arguments are {@code inputs}, then one per workgroup attribution, then one per private attribution
     * ({@link GpuFuncOp#workgroupAttribution}, {@link GpuFuncOp#privateAttribution}).
     *
     * @param module the module to append to
     * @param loc the kernel's location
     * @param name the kernel's symbol name
     * @param inputs the types of its arguments
     * @param workgroup memrefs of static shape in {@code #gpu.address_space<workgroup>}, shared by a block
     * @param privates memrefs of static shape in {@code #gpu.address_space<private>}, one per thread
     * @return the kernel, its body empty
     * @throws MgpuException if an attribution is not a static memref of its address space
     */
    public static GpuFuncOp kernel(GpuModuleOp module, Location loc, String name, List<Type> inputs,
            List<Type.MemRefType> workgroup, List<Type.MemRefType> privates) {
        KernelBuilder check = new KernelBuilder(module.body(), loc);
        check.attributions("workgroup", workgroup);
        check.attributions("private", privates);
        GpuFuncOp f = GpuFuncOp.create(loc, name, new Type.FunctionType(inputs, List.of()), true, workgroup, privates);
        module.body().append(f.op());
        return f;
    }

    private void attributions(String space, List<Type.MemRefType> types) {
        for (Type.MemRefType t : types) {
            require(t.memorySpace() instanceof AddressSpaceAttr a && a.space().equals(space)
                    && Arrays.stream(t.shape()).allMatch(d -> d != Type.DYNAMIC), "Invalid " + space
                    + " attribution (must be a memref of static shape in #gpu.address_space<" + space + ">): " + t);
        }
    }

    // ------------------------------------------------------------------ gpu

    /**
     * {@code gpu.thread_id}: the thread's index in its block.
     *
     * @param dimension 0, 1 or 2 for x, y or z
     * @return the {@code index}
     */
    public Value threadId(int dimension) {
        return dimension("thread_id", dimension);
    }

    /**
     * {@code gpu.block_id}: the block's index in the grid.
     *
     * @param dimension 0, 1 or 2 for x, y or z
     * @return the {@code index}
     */
    public Value blockId(int dimension) {
        return dimension("block_id", dimension);
    }

    /**
     * {@code gpu.block_dim}: the threads of a block.
     *
     * @param dimension 0, 1 or 2 for x, y or z
     * @return the {@code index}
     */
    public Value blockDim(int dimension) {
        return dimension("block_dim", dimension);
    }

    /**
     * {@code gpu.grid_dim}: the blocks of the grid.
     *
     * @param dimension 0, 1 or 2 for x, y or z
     * @return the {@code index}
     */
    public Value gridDim(int dimension) {
        return dimension("grid_dim", dimension);
    }

    /**
     * {@code gpu.global_id}: the thread's index in the whole grid.
     *
     * @param dimension 0, 1 or 2 for x, y or z
     * @return the {@code index}
     */
    public Value globalId(int dimension) {
        return dimension("global_id", dimension);
    }

    private Value dimension(String kind, int dimension) {
        require(dimension >= 0 && dimension <= 2, "Invalid dimension of " + DimensionOp.name(kind)
                + " (must be 0, 1 or 2 for x, y or z): " + dimension);
        return add(DimensionOp.create(location, kind, dimension)).op().result();
    }

    /**
     * {@code gpu.lane_id}: the thread's lane in its subgroup.
     *
     * @return the {@code index}
     */
    public Value laneId() {
        return add(LaneOps.create(location, LaneOps.LANE_ID)).op().result();
    }

    /**
     * {@code gpu.subgroup_size}: the lanes of a subgroup (a warp or a wavefront).
     *
     * @return the {@code index}
     */
    public Value subgroupSize() {
        return add(LaneOps.create(location, LaneOps.SUBGROUP_SIZE)).op().result();
    }

    /**
     * {@code gpu.barrier}: every thread of the block waits for the others, and sees their writes to
     * workgroup memory.
     *
     * @return the op
     */
    public Operation barrier() {
        return add(BarrierOp.create(location)).op();
    }

    /**
     * {@code gpu.return}: ends the body of the {@code gpu.func} this builder appends to.
     *
     * @param values the values returned, of the function's result types; none for a kernel
     * @return the op
     * @throws MgpuException if the block is not a function's own, or the values are not its results
     */
    public Operation gpuReturn(Value... values) {
        Operation parent = block.parentOp();
        require(parent != null && parent.name().equals(GpuFuncOp.NAME), "Invalid gpu.return (must end a block of"
                + " a gpu.func; an scf region ends with scf.yield): " + (parent == null ? "a detached block"
                : "a block of " + parent.name()));
        List<Type> want = new GpuFuncOp(parent).type().results();
        require(types(values).equals(want), "Invalid gpu.return of @" + parent.symbolName() + " (must return "
                + describe(want) + "): " + describe(types(values)));
        return add(GpuReturnOp.create(location, List.of(values))).op();
    }

    /**
     * {@code gpu.shuffle}: each lane reads {@code value} of another lane of its subgroup.
     *
     * @param mode one of {@link ShuffleOp#MODES}
     * @param value the value each lane offers: {@code i32}, {@code i64}, {@code f32} or {@code f64}
     * @param offset the {@code i32} offset or lane
     * @param width the {@code i32} number of lanes taking part
     * @return the op: the value read, and an {@code i1} that says whether the lane read was valid
     * @throws MgpuException if the mode or a type is not one of those
     */
    public ShuffleOp shuffle(String mode, Value value, Value offset, Value width) {
        require(ShuffleOp.MODES.contains(mode), "Invalid mode of gpu.shuffle (must be one of " + ShuffleOp.MODES
                + "): " + mode);
        require(List.of(Type.I32, Type.I64, Type.F32, Type.F64).contains(value.type()), "Invalid value of"
                + " gpu.shuffle (must be i32, i64, f32 or f64): " + value.type());
        expect(offset, Type.I32, "offset of gpu.shuffle");
        expect(width, Type.I32, "width of gpu.shuffle");
        return add(ShuffleOp.create(location, mode, value, offset, width));
    }

    /**
     * {@code gpu.all_reduce kind}: combines the values of every thread of the block.
     *
     * @param kind one of {@link SubgroupReduceOp#OPS}
     * @param value each thread's value, an integer or float
     * @param uniform whether every thread of the block reaches the op
     * @return the combined value
     * @throws MgpuException if the kind is unknown or does not combine values of that type
     */
    public Value allReduce(String kind, Value value, boolean uniform) {
        reduction(AllReduceOp.NAME, kind, value);
        return add(AllReduceOp.create(location, kind, value, uniform)).op().result();
    }

    /**
     * {@code gpu.all_reduce} with a body that combines two values, which the caller fills through
     * {@link #into}{@code (op.body())} and ends with {@link #reduceYield}.
     *
     * @param value each thread's value, an integer or float
     * @param uniform whether every thread of the block reaches the op
     * @return the op, whose result is the combined value
     * @throws MgpuException if the value is not an integer or float
     */
    public AllReduceOp allReduce(Value value, boolean uniform) {
        reduction(AllReduceOp.NAME, "add", value);
        return add(AllReduceOp.createWithBody(location, value, uniform));
    }

    /**
     * {@code gpu.yield}: ends the body of a {@code gpu.all_reduce} with the combined value.
     *
     * @param value the two arguments combined, of their type
     * @return the op
     * @throws MgpuException if the block is not such a body, or the value is not of its arguments' type
     */
    public Operation reduceYield(Value value) {
        Operation parent = block.parentOp();
        require(parent != null && parent.name().equals(AllReduceOp.NAME), "Invalid gpu.yield (must end the body"
                + " of a gpu.all_reduce): " + (parent == null ? "a detached block" : "a block of " + parent.name()));
        expect(value, parent.operand(0).type(), "value of gpu.yield");
        return block.append(AllReduceOp.yield(location, value));
    }

    /**
     * {@code gpu.subgroup_reduce kind}: combines the values of the lanes of a subgroup, or of clusters of it.
     *
     * @param kind one of {@link SubgroupReduceOp#OPS}
     * @param value each lane's value, an integer or float
     * @param clusterSize lanes per cluster, a power of 2 up to 64; 0 for the whole subgroup
     * @param clusterStride the distance between a cluster's lanes, a power of 2 up to 64
     * @return the combined value
     * @throws MgpuException if the kind does not combine values of that type, or a size is not a power of 2
     */
    public Value subgroupReduce(String kind, Value value, int clusterSize, int clusterStride) {
        reduction(SubgroupReduceOp.NAME, kind, value);
        require(clusterSize == 0 || powerOf2UpTo64(clusterSize), "Invalid cluster_size of gpu.subgroup_reduce (must"
                + " be a power of 2 up to 64, or 0 for the whole subgroup): " + clusterSize);
        require(powerOf2UpTo64(clusterStride), "Invalid cluster_stride of gpu.subgroup_reduce (must be a power of 2"
                + " up to 64): " + clusterStride);
        return add(SubgroupReduceOp.create(location, kind, value, clusterSize, clusterStride)).op().result();
    }

    private static boolean powerOf2UpTo64(int n) {
        return n > 0 && n <= 64 && Integer.bitCount(n) == 1;
    }

    private void reduction(String op, String kind, Value value) {
        require(SubgroupReduceOp.OPS.contains(kind), "Invalid reduction of " + op + " (must be one of "
                + SubgroupReduceOp.OPS + "): " + kind);
        Type t = value.type();
        require(t instanceof Type.FloatType || t instanceof Type.IntegerType, "Invalid operand of " + op
                + " (must be an integer or float): " + t);
        boolean floatsOnly = kind.endsWith("f");
        boolean both = kind.equals("add") || kind.equals("mul");
        require(both || floatsOnly == t instanceof Type.FloatType, "Invalid " + kind + " of " + op + " (must reduce "
                + (floatsOnly ? "floats" : "integers") + "): " + t);
    }

    /**
     * {@code gpu.printf}: each thread prints {@code format} with {@code args}, as C's printf.
     *
     * @param format the format
     * @param args integers, indices or floats, one per conversion of the format
     * @return the op
     * @throws MgpuException if an argument is of another type
     */
    public Operation printf(String format, Value... args) {
        for (Value v : args) {
            require(v.type().isIntegerOrIndex() || v.type() instanceof Type.FloatType, "Invalid argument of"
                    + " gpu.printf (must be an integer, index or float): " + v.type());
        }
        return add(PrintfOp.create(location, format, List.of(args))).op();
    }

    /**
     * {@code gpu.dynamic_shared_memory}: the block's shared memory whose size the launch gives.
     *
     * @return the {@link DynamicSharedMemoryOp#TYPE} memref
     */
    public Value dynamicSharedMemory() {
        return add(DynamicSharedMemoryOp.create(location)).op().result();
    }

    // ------------------------------------------------------------------ memref

    /**
     * {@code memref.load}.
     *
     * @param memref a ranked memref
     * @param indices one {@code index} per dimension
     * @return the element read
     * @throws MgpuException if the memref is not ranked or the indices do not fit it
     */
    public Value load(Value memref, Value... indices) {
        indices(MemRef.LoadOp.NAME, memref, indices);
        return add(MemRef.LoadOp.create(location, memref, List.of(indices))).op().result();
    }

    /**
     * {@code memref.store}.
     *
     * @param value the value written, of the memref's element type
     * @param memref a ranked memref
     * @param indices one {@code index} per dimension
     * @return the op
     * @throws MgpuException if the memref is not ranked, the indices do not fit it, or the value is of
     *         another type
     */
    public Operation store(Value value, Value memref, Value... indices) {
        Type.MemRefType m = indices(MemRef.StoreOp.NAME, memref, indices);
        expect(value, m.elementType(), "value of memref.store");
        return add(MemRef.StoreOp.create(location, value, memref, List.of(indices))).op();
    }

    /**
     * {@code memref.atomic_rmw}: reads an element, combines it with {@code value} and writes the result back,
     * as one step no other thread can come between.
     *
     * @param kind one of {@link MemRef.AtomicRMWOp#KINDS}
     * @param value the value combined, of the memref's element type
     * @param memref a ranked memref
     * @param indices one {@code index} per dimension
     * @return the element before the write
     * @throws MgpuException if the kind is unknown, the indices do not fit, or the value is of another type
     */
    public Value atomicRmw(String kind, Value value, Value memref, Value... indices) {
        require(MemRef.AtomicRMWOp.KINDS.contains(kind), "Invalid kind of memref.atomic_rmw (must be one of "
                + MemRef.AtomicRMWOp.KINDS + "): " + kind);
        Type.MemRefType m = indices(MemRef.AtomicRMWOp.NAME, memref, indices);
        expect(value, m.elementType(), "value of memref.atomic_rmw");
        return add(MemRef.AtomicRMWOp.create(location, kind, value, memref, List.of(indices))).op().result();
    }

    private Type.MemRefType indices(String op, Value memref, Value[] indices) {
        require(memref.type() instanceof Type.MemRefType, "Invalid memref of " + op + " (must be a ranked memref): "
                + memref.type());
        Type.MemRefType m = (Type.MemRefType) memref.type();
        require(indices.length == m.rank(), "Invalid indices of " + op + " (must be one per dimension of " + m
                + "): " + indices.length);
        for (Value i : indices) {
            expect(i, Type.INDEX, "index of " + op);
        }
        return m;
    }

    /**
     * {@code memref.alloca}: memory of the thread, freed when the function returns. A kernel's code gives
     * each thread a fixed number of elements, so the shape is static.
     *
     * @param type the memref allocated, of static shape
     * @return the memref
     * @throws MgpuException if the shape has a dynamic size
     */
    public Value alloca(Type.MemRefType type) {
        require(Arrays.stream(type.shape()).noneMatch(d -> d == Type.DYNAMIC), "Invalid memref.alloca in a kernel"
                + " (must have a static shape): " + type);
        return add(Allocations.AllocaOp.create(location, type, List.of())).op().result();
    }

    /**
     * {@code memref.subview} of unit strides or any: each entry of the lists is a {@link Long} or an
     * {@code index} {@link Value}, one per dimension of {@code source}; the view's type is
     * {@link Views.SubViewOp#inferredType}.
     *
     * @param source a ranked memref
     * @param offsets where the view starts
     * @param sizes the view's sizes
     * @param strides the steps between the view's elements, in elements of {@code source}
     * @return the view
     * @throws MgpuException if a list does not have one entry per dimension, or an entry is neither
     */
    public Value subview(Value source, List<Object> offsets, List<Object> sizes, List<Object> strides) {
        require(source.type() instanceof Type.MemRefType, "Invalid source of memref.subview (must be a ranked"
                + " memref): " + source.type());
        Type.MemRefType m = (Type.MemRefType) source.type();
        long[] o = mixed("offsets", offsets, m);
        long[] s = mixed("sizes", sizes, m);
        long[] st = mixed("strides", strides, m);
        return add(Views.SubViewOp.create(location, source, offsets, sizes, strides, Views.SubViewOp.inferredType(m,
                o, s, st))).op().result();
    }

    private long[] mixed(String what, List<Object> entries, Type.MemRefType m) {
        require(entries.size() == m.rank(), "Invalid " + what + " of memref.subview (must be one per dimension of "
                + m + "): " + entries.size());
        long[] out = new long[entries.size()];
        for (int i = 0; i < out.length; i++) {
            Object e = entries.get(i);
            require(e instanceof Long || e instanceof Value v && v.type().equals(Type.INDEX), "Invalid " + what
                    + " of memref.subview (must be a Long or an index value): " + (e instanceof Value v ? v.type() : e));
            out[i] = e instanceof Long l ? l : Type.DYNAMIC;
        }
        return out;
    }

    // ------------------------------------------------------------------ scf, cf

    /**
     * {@code scf.for}: its body ({@link Scf.ForOp#body()}, whose arguments are the induction variable, then
     * one per carried value) is filled through {@link #into} and ends with {@link #yield}.
     *
     * @param lb the lower bound
     * @param ub the upper bound, of the lower bound's type
     * @param step the step, of the lower bound's type
     * @param inits the values carried from one iteration to the next, initially
     * @return the loop, whose results are the values carried out of the last iteration
     * @throws MgpuException if the bounds and step are not integers or indices of one type
     */
    public Scf.ForOp forLoop(Value lb, Value ub, Value step, Value... inits) {
        require(lb.type().isIntegerOrIndex(), "Invalid lower bound of scf.for (must be an integer or index): "
                + lb.type());
        expect(ub, lb.type(), "upper bound of scf.for");
        expect(step, lb.type(), "step of scf.for");
        return add(Scf.ForOp.create(location, lb, ub, step, List.of(inits)));
    }

    /**
     * {@code scf.if}: its regions ({@link Scf.IfOp#thenRegion()}, {@link Scf.IfOp#elseRegion()}) are filled
     * through {@link #into} and end with {@link #yield}.
     *
     * @param condition the {@code i1} condition
     * @param results the types of the values the branches yield
     * @param withElse whether it has an else branch (it must when it has results)
     * @return the op
     * @throws MgpuException if the condition is not an {@code i1}, or results come without an else branch
     */
    public Scf.IfOp ifThen(Value condition, List<Type> results, boolean withElse) {
        expect(condition, Type.I1, "condition of scf.if");
        require(withElse || results.isEmpty(), "Invalid scf.if (must have an else branch to yield results): "
                + describe(results));
        return add(Scf.IfOp.create(location, condition, results, withElse));
    }

    /**
     * {@code scf.yield}: ends a body of {@code scf.for} or {@code scf.if}.
     *
     * @param values the values carried to the next iteration, or the branch's results
     * @return the op
     * @throws MgpuException if the block is not such a body, or the values are not of its result types
     */
    public Operation yield(Value... values) {
        Operation parent = block.parentOp();
        require(parent != null && (parent.name().equals(Scf.ForOp.NAME) || parent.name().equals(Scf.IfOp.NAME)),
                "Invalid scf.yield (must end a body of scf.for or scf.if): " + (parent == null ? "a detached block"
                        : "a block of " + parent.name()));
        List<Type> want = new ArrayList<>();
        parent.results().forEach(r -> want.add(r.type()));
        require(types(values).equals(want), "Invalid scf.yield in " + parent.name() + " (must yield "
                + describe(want) + "): " + describe(types(values)));
        return add(Scf.YieldOp.create(location, List.of(values))).op();
    }

    /**
     * {@code cf.assert}: the program stops with {@code message} where {@code condition} is false.
     *
     * @param condition the {@code i1} that must hold
     * @param message what the program prints when it does not
     * @return the op
     * @throws MgpuException if the condition is not an {@code i1}
     */
    public Operation assertThat(Value condition, String message) {
        expect(condition, Type.I1, "condition of cf.assert");
        return add(Cf.AssertOp.create(location, condition, message)).op();
    }
}
