/**
 * The framework of a translation: {@link dev.mgpu.codegen.internal.translate.ModuleTranslation} with its phases
 * and value maps, the {@link dev.mgpu.codegen.internal.translate.DeviceTarget} contract each target implements,
 * the op table, the mapping of types, counted loops, streams, kernel arguments, the lookup of offloading
 * handlers, and debug information.
 */
package dev.mgpu.codegen.internal.translate;
