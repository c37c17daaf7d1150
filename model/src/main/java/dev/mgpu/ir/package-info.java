/**
 * The IR itself, independent of any dialect: {@link dev.mgpu.ir.Operation}s with their operands, results,
 * attributes, regions and successors, {@link dev.mgpu.ir.Block}s and {@link dev.mgpu.ir.Region}s, {@link
 * dev.mgpu.ir.Value}s, the {@link dev.mgpu.ir.Type}s and {@link dev.mgpu.ir.Attribute}s (records, so equal by
 * structure), {@link dev.mgpu.ir.Location}s and {@link dev.mgpu.ir.Diagnostic}s with the {@link
 * dev.mgpu.ir.MgpuException} that carries them, and {@link dev.mgpu.ir.AsmOutput}, the byte sink MLIR text is
 * written to. Every other package builds on this one, and it depends on none of them.
 */
package dev.mgpu.ir;
