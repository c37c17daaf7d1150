/**
 * The implementation of {@code dev.mgpu.mlir}, not for use outside this module: the lexer, which reads tokens
 * straight from the input bytes, the parser in layers (tokens, types, attributes, locations, operations, the
 * whole file with its aliases), the table that interns names, and the printer.
 */
package dev.mgpu.mlir.internal;
