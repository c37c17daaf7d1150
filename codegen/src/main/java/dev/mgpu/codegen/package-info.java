/**
 * The code generator's public API: the facade {@link dev.mgpu.codegen.Mgpu} (parse, verify, outline and compile
 * kernels, translate, emit), the options of kernels and host code, what can be emitted, and the API of
 * offloading handlers ({@link dev.mgpu.codegen.LLVMOffloadingHandler}, {@link dev.mgpu.codegen.HandlerContext},
 * {@link dev.mgpu.codegen.RuntimeCalls}) with the two built-in handlers, {@code #gpu.select_object} and {@code
 * #gpu.runtime_select}. The translation itself is in the internal packages, which no public signature names.
 */
package dev.mgpu.codegen;
