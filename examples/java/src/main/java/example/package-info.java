/**
 * A Java user's programs, built against mgpu's installed artifacts: {@link example.AxpyFromJava} builds a host
 * module with {@code OpBuilder} and runs it with CPU kernels written in C, and {@link
 * example.ReduceKernelFromJava} builds a kernel with workgroup memory and barriers with {@code KernelBuilder},
 * compiles it for NVIDIA, AMD and the CPU in one call, and runs it on the CPU, each checking every number it
 * computes.
 */
package example;
