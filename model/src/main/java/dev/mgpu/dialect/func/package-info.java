/**
 * The func dialect of host functions: {@code func.func}, {@code func.call} and {@code func.return}, with the
 * function syntax shared with the other function ops.
 */
package dev.mgpu.dialect.func;
