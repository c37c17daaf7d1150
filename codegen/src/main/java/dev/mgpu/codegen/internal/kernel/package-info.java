/**
 * The translators of kernel bodies that every target shares: the gpu ops of kernels, structured control flow,
 * memref access and views, math, and the exchanges between threads (shuffles and reductions), each asking the
 * target for what differs rather than testing which target it has, and the checks they make first ({@code
 * KernelChecks}).
 */
package dev.mgpu.codegen.internal.kernel;
