/**
 * The verifier: {@link dev.mgpu.verify.Verifier} checks a module's structure (registered ops, terminators,
 * regions isolated from above), dominance within blocks ({@link dev.mgpu.verify.Dominance}), the lifetimes of
 * async tokens, and then each op's own rules, and returns every problem it finds with its location, not only the
 * first.
 */
package dev.mgpu.verify;
