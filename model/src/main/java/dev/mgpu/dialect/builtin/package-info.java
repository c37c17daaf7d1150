/**
 * The builtin dialect: {@code module}, the top-level op every input is, with its {@code gpu.container_module}
 * marker, and the {@code distinct[id]<...>} attribute that debug-info attributes refer to each other by.
 */
package dev.mgpu.dialect.builtin;
