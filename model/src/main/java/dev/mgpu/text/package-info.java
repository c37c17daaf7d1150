/**
 * The interfaces a dialect writes its textual syntax against: {@link dev.mgpu.text.AsmParser} for dialect
 * attributes and types, {@link dev.mgpu.text.OpAsmParser} and {@link dev.mgpu.text.OpAsmPrinter} for an op's
 * custom form. The parser and printer of {@code dev.mgpu.mlir} implement them, so that a dialect never sees how
 * MLIR text is read or written.
 */
package dev.mgpu.text;
