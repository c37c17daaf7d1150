/**
 * JMH benchmarks of the library in process: the throughput of parse, verify, translate and emit on modules of
 * many kernel launches, each phase measured on its own.
 */
package dev.mgpu.bench;
