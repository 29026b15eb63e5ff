package dev.tradeoff.beam.runner;

import dev.tradeoff.accounting.internal.Require;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.PipelineOptionsFactory;

/**
 * The Beam runners Tradeoff's pipelines are tested on, each configured to run embedded in this JVM
 * with the given parallelism ({@link #options}), Spark and Flink also to submit to a running
 * cluster ({@link #remoteOptions}).
 *
 * <ul>
 *   <li>{@link #DIRECT}: the DirectRunner (always on the class path; the default).
 *   <li>{@link #SPARK}: the Spark 3 runner on {@code local[parallelism]}. On Java 17 the JVM needs
 *       the {@code --add-opens} flags Spark documents (the {@code ./tradeoff} launcher and the
 *       module's tests pass them).
 *   <li>{@link #FLINK}: the Flink 1.19 runner on an embedded local cluster ({@code [local]}).
 * </ul>
 *
 * <p>Spark and Flink are optional dependencies of {@code tradeoff-beam}; {@link #options} fails
 * with a one-line message naming what is missing when their runner is not on the class path.
 */
public enum BeamRunner {
  DIRECT("org.apache.beam.runners.direct.DirectRunner"),
  SPARK("org.apache.beam.runners.spark.SparkRunner"),
  FLINK("org.apache.beam.runners.flink.FlinkRunner");

  private final String runnerClass;

  BeamRunner(String runnerClass) {
    this.runnerClass = runnerClass;
  }

  /** Parses direct, spark or flink. */
  public static BeamRunner parse(String name) {
    Require.nonNull("runner", name);
    for (BeamRunner r : values()) {
      if (r.name().equalsIgnoreCase(name)) {
        return r;
      }
    }
    throw new IllegalArgumentException("runner must be one of direct, spark, flink, but was "
        + name);
  }

  /** Whether this runner's classes are on the class path. */
  public boolean available() {
    try {
      Class.forName(runnerClass, false, BeamRunner.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  /**
   * Options that select this runner, embedded, with {@code parallelism} worker threads.
   *
   * @throws IllegalArgumentException if the runner is not on the class path
   */
  public PipelineOptions options(int parallelism) {
    Require.positive("parallelism", parallelism);
    if (!available()) {
      throw new IllegalArgumentException("runner " + cliName() + " is not on the class path ("
          + runnerClass + "); build the command line with -Pcluster-runners or add "
          + "tradeoff-beam's optional " + cliName() + " dependencies");
    }
    List<String> args = new ArrayList<>();
    args.add("--runner=" + runnerClass.substring(runnerClass.lastIndexOf('.') + 1));
    switch (this) {
      case DIRECT -> {
        args.add("--targetParallelism=" + parallelism);
        args.add("--enforceImmutability=false");
        args.add("--enforceEncodability=false");
      }
      case SPARK -> {
        args.add("--sparkMaster=local[" + parallelism + "]");
        args.add("--enableSparkMetricSinks=false");
      }
      case FLINK -> {
        args.add("--flinkMaster=[local]");
        args.add("--parallelism=" + parallelism);
      }
    }
    return PipelineOptionsFactory.fromArgs(args.toArray(String[]::new)).create();
  }

  /**
   * Options that submit to a running cluster, staging only the given files (the cluster's JVMs
   * load everything else from their own class path): for {@link #FLINK} a session cluster (see
   * {@link dev.tradeoff.beam.cluster.FlinkSessionCluster}) at its REST address HOST:PORT, for
   * {@link #SPARK} a standalone master (see {@link dev.tradeoff.beam.cluster.SparkStandaloneCluster})
   * at {@code spark://HOST:PORT}. With Spark the driver runs in this JVM (Spark's client mode) and
   * the application gets the cluster's executors.
   *
   * @param master HOST:PORT (Flink) or {@code spark://HOST:PORT} (Spark)
   * @param parallelism Flink's parallelism; a Spark application uses its executors' cores
   * @param filesToStage the job's own jar (or class directory, which Beam packs into a jar)
   * @throws IllegalArgumentException if this is the DirectRunner, the master is not in the
   *     runner's form, or the runner is not on the class path
   */
  public PipelineOptions remoteOptions(String master, int parallelism, List<String> filesToStage) {
    Require.nonNull("master", master);
    Require.positive("parallelism", parallelism);
    Require.that(this != DIRECT, "runner", "must be flink or spark to submit to a --master (the "
        + "clusters `tradeoff cluster up --engine flink|spark` starts)", cliName());
    Require.that(this == SPARK ? master.matches("spark://[^:/]+:\\d+")
        : master.matches("[^:/]+:\\d+"), "master", "must be " + (this == SPARK
            ? "spark://HOST:PORT for the spark runner" : "HOST:PORT for the flink runner"),
        master);
    options(parallelism);
    List<String> args = new ArrayList<>();
    if (this == SPARK) {
      args.add("--runner=SparkRunner");
      args.add("--sparkMaster=" + master);
      args.add("--enableSparkMetricSinks=false");
    } else {
      args.add("--runner=FlinkRunner");
      args.add("--flinkMaster=" + master);
      args.add("--parallelism=" + parallelism);
    }
    args.add("--filesToStage=" + String.join(",", filesToStage));
    return PipelineOptionsFactory.fromArgs(args.toArray(String[]::new)).create();
  }

  /** The command-line spelling. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
