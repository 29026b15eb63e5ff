package dev.tradeoff.bench;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Operations per CPU-second of the benchmark process, beside JMH's operations per wall-second: on a
 * machine shared with other work the wall figure measures the share of a core the benchmark got,
 * the CPU figure what a core does. The CPU time is the whole process's (JIT compiler, GC and JMH's
 * own threads included) over each iteration, so the figure errs low.
 *
 * <p>Use: {@code -prof dev.tradeoff.bench.CpuTimeProfiler}; it adds {@code ·ops-per-cpu-second}.
 */
public final class CpuTimeProfiler implements InternalProfiler {

  private long cpuAtStart;

  @Override
  public String getDescription() {
    return "operations per CPU-second of the benchmark process";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
    cpuAtStart = processCpuNanos();
  }

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmark, IterationParams iteration, IterationResult result) {
    double seconds = (processCpuNanos() - cpuAtStart) / 1e9;
    double rate = seconds > 0 ? result.getMetadata().getAllOps() / seconds : Double.NaN;
    return List.of(
        new ScalarResult("ops-per-cpu-second", rate, "ops/cpu-s", AggregationPolicy.AVG));
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
