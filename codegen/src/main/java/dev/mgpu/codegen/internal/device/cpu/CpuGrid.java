package dev.mgpu.codegen.internal.device.cpu;

/**
 * The layout of {@code mgpuCpuGrid} of {@code mgpu.h}, which a CPU kernel's entry point and work-item loops
 * read and write: four {@code int64_t[3]} arrays, then the block's dynamic shared memory pointer. The one
 * description of it on the Java side; a test holds it against the header.
 */
public final class CpuGrid {
    private CpuGrid() {
    }

    /** The arrays, in the order the struct holds them. */
    public enum Array {
        GRID_DIM, BLOCK_DIM, BLOCK_IDX, THREAD_IDX
    }

    /** The index of the {@code int64_t} word of {@code array}'s element {@code dim} (0, 1, 2). */
    public static int word(Array array, int dim) {
        return array.ordinal() * 3 + dim;
    }

    /** The byte offset of {@code sharedMemory}, after the four arrays. */
    public static final long SHARED_MEMORY_OFFSET = 4 * 3 * Long.BYTES;

    /** The struct's size in bytes, and in 8-byte words. */
    public static final long BYTES = SHARED_MEMORY_OFFSET + Long.BYTES;

    /** The struct's size in 8-byte words. */
    public static final int WORDS = (int) (BYTES / Long.BYTES);
}
