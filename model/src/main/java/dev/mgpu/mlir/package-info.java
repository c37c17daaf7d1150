/**
 * MLIR text in and out: {@link dev.mgpu.mlir.MlirParser} reads a file into a module, reporting errors at
 * file:line:col, and {@link dev.mgpu.mlir.MlirPrinter} writes a module back in the custom or generic form,
 * naming values as upstream's printer does, so that upstream's tools read what it prints.
 */
package dev.mgpu.mlir;
