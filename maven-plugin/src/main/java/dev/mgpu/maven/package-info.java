/**
 * The Maven plugin of mgpu: its goal {@code mgpu:generate} compiles a project's MLIR GPU-dialect sources
 * ({@code src/main/mlir/**}{@code /*.mlir}) with {@code gpu-translate} at build time, into objects, LLVM
 * modules or executables linked with libmgpu under {@code target/mgpu}.
 *
 * <p>The compiler runs in a JVM of its own, started from the plugin's own dependencies, never in Maven's: a
 * crash inside LLVM ends that process and fails the build, and leaves Maven running. Each output is
 * rebuilt only when an input that its Make-style dependency file names, or the configuration, has changed.
 */
package dev.mgpu.maven;
