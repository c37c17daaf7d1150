/**
 * The cf dialect of unstructured control flow: the branches {@code cf.br} and {@code cf.cond_br} between blocks,
 * and {@code cf.assert}, which stops the program with a message where its condition is false.
 */
package dev.mgpu.dialect.cf;
