/**
 * What defining an op takes: {@link dev.mgpu.op.OpDef} (its custom syntax, verifier and traits), {@link
 * dev.mgpu.op.OpView}, the typed view each op class extends, {@link dev.mgpu.op.AttrDef} and {@link
 * dev.mgpu.op.TypeDef} for dialect attributes and types, {@link dev.mgpu.op.VerifyContext} and {@link
 * dev.mgpu.op.SymbolTables} for verifiers, and the syntax several dialects share (functions, calls, returns,
 * branches, arithmetic flags), so that no dialect needs another.
 */
package dev.mgpu.op;
