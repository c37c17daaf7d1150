/**
 * The scf dialect of structured control flow: {@code scf.for} with the values it carries, {@code scf.if} with
 * results, {@code scf.while}, and their terminators {@code scf.yield} and {@code scf.condition}.
 */
package dev.mgpu.dialect.scf;
