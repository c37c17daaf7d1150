package dev.mgpu.ir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A generic operation: name, operands, results, attributes, regions and successors, with a location.
 * Dialects give typed views over it (see {@code dev.mgpu.dialect}).
 */
public final class Operation {
    private final String name;
    private Location location;
    private final Value[] operands;
    private final Value.OpResult[] results;
    private final Map<String, Attribute> attributes;
    private final List<Region> regions;
    private final Block[] successors;
    private Block parent;
    private byte[] fileResources;

    private Operation(String name, Location location, List<Value> operands, List<Type> resultTypes,
            Map<String, Attribute> attributes, List<Region> regions, List<Block> successors) {
        this.name = Objects.requireNonNull(name, "name");
        this.location = Objects.requireNonNull(location, "location");
        this.operands = operands.toArray(new Value[0]);
        this.results = new Value.OpResult[resultTypes.size()];
        for (int i = 0; i < results.length; i++) {
            results[i] = new Value.OpResult(resultTypes.get(i), this, i);
        }
        this.attributes = new AttrMap(attributes);
        for (Region r : regions) {
            if (r.parent() != null) {
                throw new IllegalStateException("region already belongs to " + r.parent().name());
            }
            r.setParent(this);
        }
        this.regions = List.copyOf(regions);
        this.successors = successors.toArray(new Block[0]);
    }

    /**
     * Creates a detached operation with {@code regionCount} new empty regions.
     *
     * @param name the op's name, such as {@code gpu.binary}
     * @param location the op's location
     * @param operands the operands, none null
     * @param resultTypes the types of the results, which the op creates
     * @param attributes the attributes, copied
     * @param regionCount the number of regions
     * @param successors the successor blocks
     * @return the new operation
     * @throws NullPointerException if the name, the location or an operand is null
     */
    public static Operation create(String name, Location location, List<Value> operands, List<Type> resultTypes,
            Map<String, Attribute> attributes, int regionCount, List<Block> successors) {
        List<Region> regions = new ArrayList<>(regionCount);
        for (int i = 0; i < regionCount; i++) {
            regions.add(new Region());
        }
        return create(name, location, operands, resultTypes, attributes, regions, successors);
    }

    /**
     * Creates a detached operation that takes ownership of {@code regions}, which must be detached: a
     * parser builds regions first and the op around them.
     *
     * @param name the op's name, such as {@code gpu.binary}
     * @param location the op's location
     * @param operands the operands, none null
     * @param resultTypes the types of the results, which the op creates
     * @param attributes the attributes, copied
     * @param regions the regions, none of which may belong to an op
     * @param successors the successor blocks
     * @return the new operation
     * @throws NullPointerException if the name, the location or an operand is null
     * @throws IllegalStateException if a region already belongs to an op
     */
    public static Operation create(String name, Location location, List<Value> operands, List<Type> resultTypes,
            Map<String, Attribute> attributes, List<Region> regions, List<Block> successors) {
        for (Value v : operands) {
            if (v == null) {
                // The message is made only when it is needed: ops are made by the thousand.
                throw new NullPointerException("operand of " + name);
            }
        }
        return new Operation(name, location, operands, resultTypes, attributes, regions, successors);
    }

    /**
     * Creates a detached operation without regions or successors.
     *
     * @param name the op's name, such as {@code gpu.binary}
     * @param location the op's location
     * @param operands the operands, none null
     * @param resultTypes the types of the results, which the op creates
     * @param attributes the attributes, copied
     * @return the new operation
     * @throws NullPointerException if the name, the location or an operand is null
     */
    public static Operation create(String name, Location location, List<Value> operands, List<Type> resultTypes,
            Map<String, Attribute> attributes) {
        return create(name, location, operands, resultTypes, attributes, 0, List.of());
    }

    /**
     * The op's full name, such as {@code gpu.binary}.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The dialect prefix of the name ({@code gpu} for {@code gpu.binary}).
     *
     * @return the part of the name before its first dot, or empty if it has none
     */
    public String dialect() {
        int dot = name.indexOf('.');
        return dot < 0 ? "" : name.substring(0, dot);
    }

    /**
     * The op's own location, which may be unknown.
     *
     * @return the location
     * @see #knownLocation()
     */
    public Location location() {
        return location;
    }

    /**
     * The op's location, or, when it is unknown, that of the nearest enclosing op that has one: a
     * diagnostic always points into the file.
     *
     * @return the first location that is not unknown, from this op outwards, or this op's location if none is known
     */
    public Location knownLocation() {
        for (Operation o = this; o != null; o = o.parentOp()) {
            if (!(o.location instanceof Location.Unknown)) {
                return o.location;
            }
        }
        return location;
    }

    /**
     * Sets the op's location.
     *
     * @param location the new location
     * @throws NullPointerException if {@code location} is null
     */
    public void setLocation(Location location) {
        this.location = Objects.requireNonNull(location);
    }

    /**
     * The operands.
     *
     * @return a read-only list that reflects later operand changes
     */
    public List<Value> operands() {
        return new OperandRange(operands, 0, operands.length);
    }

    /**
     * The number of operands.
     *
     * @return the operand count
     */
    public int operandCount() {
        return operands.length;
    }

    /**
     * One operand.
     *
     * @param i the operand's index
     * @return the operand
     * @throws ArrayIndexOutOfBoundsException if there is no operand {@code i}
     */
    public Value operand(int i) {
        return operands[i];
    }

    /**
     * Replaces one operand; used by the parser to resolve forward references.
     *
     * @param i the operand's index
     * @param v the new operand
     * @throws NullPointerException if {@code v} is null
     */
    public void setOperand(int i, Value v) {
        operands[i] = Objects.requireNonNull(v);
    }

    /**
     * The results.
     *
     * @return a read-only list of the results
     */
    public List<Value.OpResult> results() {
        return Collections.unmodifiableList(Arrays.asList(results));
    }

    /**
     * The number of results.
     *
     * @return the result count
     */
    public int resultCount() {
        return results.length;
    }

    /**
     * One result.
     *
     * @param i the result's index
     * @return the result
     * @throws ArrayIndexOutOfBoundsException if there is no result {@code i}
     */
    public Value.OpResult result(int i) {
        return results[i];
    }

    /**
     * The first result, for an op with one.
     *
     * @return result 0
     * @throws ArrayIndexOutOfBoundsException if the op has no result
     */
    public Value result() {
        return results[0];
    }

    /**
     * The attributes, inherent and discardable.
     *
     * @return a read-only view of the attributes
     */
    public Map<String, Attribute> attributes() {
        return Collections.unmodifiableMap(attributes);
    }

    /**
     * One attribute.
     *
     * @param key the attribute's name
     * @return the attribute, or null if the op has none of that name
     */
    public Attribute attr(String key) {
        return attributes.get(key);
    }

    /**
     * Whether the op has an attribute.
     *
     * @param key the attribute's name
     * @return true if the op has an attribute of that name
     */
    public boolean hasAttr(String key) {
        return attributes.containsKey(key);
    }

    /**
     * Sets or removes an attribute.
     *
     * @param key the attribute's name
     * @param value the new value, or null to remove the attribute
     */
    public void setAttr(String key, Attribute value) {
        if (value == null) {
            attributes.remove(key);
        } else {
            attributes.put(key, value);
        }
    }

    /**
     * The regions.
     *
     * @return the regions, in order; the list cannot be changed
     */
    public List<Region> regions() {
        return regions;
    }

    /**
     * One region.
     *
     * @param i the region's index
     * @return the region
     * @throws IndexOutOfBoundsException if there is no region {@code i}
     */
    public Region region(int i) {
        return regions.get(i);
    }

    /**
     * The successor blocks, for a terminator that branches.
     *
     * @return a read-only list of the successors
     */
    public List<Block> successors() {
        return Collections.unmodifiableList(Arrays.asList(successors));
    }

    /**
     * Replaces one successor.
     *
     * @param i the successor's index
     * @param b the new successor
     * @throws ArrayIndexOutOfBoundsException if there is no successor {@code i}
     */
    public void setSuccessor(int i, Block b) {
        successors[i] = b;
    }

    /**
     * The file-level resource section ({@code {-# dialect_resources: ... #-}}) that came with this
     * top-level op, as its text, or null. MLIR keeps resources beside the module, not in it; mgpu keeps
     * the section's exact text so that a round trip writes it back.
     *
     * @return the section's text, or null
     */
    public byte[] fileResources() {
        return fileResources;
    }

    /**
     * Sets the resource section that belongs with this top-level op.
     *
     * @param text the section's text, or null for none
     */
    public void setFileResources(byte[] text) {
        this.fileResources = text;
    }

    /**
     * The block holding this operation, or null when detached.
     *
     * @return the block, or null
     */
    public Block parent() {
        return parent;
    }

    void setParent(Block b) {
        this.parent = b;
    }

    /**
     * The closest enclosing operation, or null for a top-level one.
     *
     * @return the op that holds this op's block, or null
     */
    public Operation parentOp() {
        return parent == null ? null : parent.parentOp();
    }

    /**
     * The {@code sym_name} of a symbol operation, or null.
     *
     * @return the symbol name, or null if the op has no string {@code sym_name}
     */
    public String symbolName() {
        Attribute a = attributes.get("sym_name");
        return a instanceof Attribute.StringAttr s ? s.value() : null;
    }

    /**
     * The operands of segment {@code index}, for operations with variadic groups described by an
     * {@code operandSegmentSizes} array.
     *
     * @param index the segment's index
     * @return a read-only view of the segment's operands
     * @throws IllegalStateException if the op has no such segment, or the segments exceed its operands
     */
    public List<Value> segment(int index) {
        Attribute.DenseArrayAttr seg = segments(index);
        int start = segmentStart(seg, index);
        return new OperandRange(operands, start, start + (int) seg.get(index));
    }

    /**
     * The number of operands in segment {@code index}.
     *
     * @param index the segment's index
     * @return its size, as {@code segment(index).size()} gives it
     * @throws IllegalStateException if the op has no such segment, or the segments exceed its operands
     */
    public int segmentSize(int index) {
        Attribute.DenseArrayAttr seg = segments(index);
        segmentStart(seg, index);
        return (int) seg.get(index);
    }

    /**
     * Operand {@code i} of segment {@code index}, as {@code segment(index).get(i)} gives it, without making a
     * view of the segment: launches ask for their sizes one at a time.
     *
     * @param index the segment's index
     * @param i the operand's index in the segment
     * @return the operand
     * @throws IllegalStateException if the op has no such segment, or the segments exceed its operands
     * @throws IndexOutOfBoundsException if the segment has no operand {@code i}
     */
    public Value segmentOperand(int index, int i) {
        Attribute.DenseArrayAttr seg = segments(index);
        int start = segmentStart(seg, index);
        if (i < 0 || i >= (int) seg.get(index)) {
            throw new IndexOutOfBoundsException(i);
        }
        return operands[start + i];
    }

    /** The sizes of the operand segments, which must include segment {@code index}. */
    private Attribute.DenseArrayAttr segments(int index) {
        Attribute a = attributes.get("operandSegmentSizes");
        if (!(a instanceof Attribute.DenseArrayAttr seg) || index >= seg.size()) {
            throw new IllegalStateException(name + " has no operand segment " + index);
        }
        return seg;
    }

    /** Where segment {@code index} of {@code seg} starts among the operands, once its end is checked. */
    private int segmentStart(Attribute.DenseArrayAttr seg, int index) {
        int start = 0;
        for (int i = 0; i < index; i++) {
            start += (int) seg.get(i);
        }
        int n = (int) seg.get(index);
        if (start + n > operands.length) {
            throw new IllegalStateException(name + ": operand segments exceed its " + operands.length + " operands");
        }
        return start;
    }

    @Override
    public String toString() {
        return name + " at " + location;
    }

    /** A read-only view of a slice of the operand array. */
    private static final class OperandRange extends java.util.AbstractList<Value> implements java.util.RandomAccess {
        private final Value[] values;
        private final int from;
        private final int to;

        OperandRange(Value[] values, int from, int to) {
            this.values = values;
            this.from = from;
            this.to = to;
        }

        @Override
        public Value get(int index) {
            if (index < 0 || index >= to - from) {
                throw new IndexOutOfBoundsException(index);
            }
            return values[from + index];
        }

        @Override
        public int size() {
            return to - from;
        }
    }
}
