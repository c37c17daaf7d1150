/**
 * The vector dialect subset: {@code vector.print} of scalars and one-dimensional vectors, as test programs print
 * their results, and {@code vector.transfer_read} of a one-dimensional vector from a memref.
 */
package dev.mgpu.dialect.vector;
