/**
 * The math dialect: float functions of one, two or three operands ({@code sqrt}, {@code powf}, {@code fma},
 * ...), the integer functions ({@code absi}, {@code ctpop}, ...) and the float classes ({@code isnan}, ...),
 * with their fast-math flags.
 */
package dev.mgpu.dialect.math;
