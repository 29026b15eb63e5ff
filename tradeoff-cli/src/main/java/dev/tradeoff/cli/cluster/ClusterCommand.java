package dev.tradeoff.cli.cluster;

import dev.tradeoff.beam.cluster.FlinkSessionCluster;
import dev.tradeoff.beam.cluster.LocalCluster;
import dev.tradeoff.beam.cluster.SparkStandaloneCluster;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Json;
import dev.tradeoff.cli.io.Progress;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff cluster up|down}: a local multi-process cluster, each JVM on 127.0.0.1 — a Flink
 * session cluster (a JobManager and N TaskManagers) for {@code label --runner flink --master
 * HOST:PORT}, or with {@code --engine spark} a Spark standalone cluster (a master and N workers,
 * whose executors are JVMs of their own) for {@code label --runner spark --master
 * spark://HOST:PORT}; {@code down} stops exactly the processes {@code up} recorded, whichever the
 * engine. Each checkout has its own state directory (logs included) and runs one cluster at a
 * time; a start that fails says which process exited, with what status, and what its log says
 * ({@link dev.tradeoff.beam.cluster.ClusterStartException}, exit 1).
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
    description = "Start or stop a local multi-process Flink or Spark cluster on loopback.",
    subcommands = {ClusterCommand.Up.class, ClusterCommand.Down.class})
public final class ClusterCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getErr());
  }

  /**
   * The state directory: the one given, else one per checkout, {@code
   * $TRADEOFF_HOME/cluster-ID} or {@code ~/.tradeoff/cluster-ID}, where ID is a hash of where this
   * command's classes are (so two checkouts never share, or stop, each other's cluster).
   */
  static Path stateDir(Path given) {
    if (given != null) {
      return given;
    }
    String home = System.getenv("TRADEOFF_HOME");
    return (home != null ? Path.of(home) : Path.of(System.getProperty("user.home"), ".tradeoff"))
        .resolve("cluster-" + checkoutId());
  }

  /** The first 12 hexadecimal digits of SHA-256 of the directory holding this command's classes. */
  static String checkoutId() {
    String where;
    try {
      where = Path.of(ClusterCommand.class.getProtectionDomain().getCodeSource().getLocation()
          .toURI()).toAbsolutePath().normalize().getParent().toString();
    } catch (java.net.URISyntaxException | RuntimeException e) {
      where = System.getProperty("user.dir");
    }
    try {
      byte[] hash = java.security.MessageDigest.getInstance("SHA-256")
          .digest(where.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return java.util.HexFormat.of().formatHex(hash, 0, 6);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** {@code cluster up}. */
  @Command(name = "up", mixinStandardHelpOptions = true,
      description = "Start a Flink JobManager and --workers TaskManagers, or (--engine spark) a "
          + "Spark master and --workers workers; wait until jobs are accepted.")
  static final class Up implements Runnable {
    @Spec CommandSpec spec;

    @Option(names = "--engine", defaultValue = "flink", description = "flink (a session "
        + "cluster) or spark (a standalone cluster); default ${DEFAULT-VALUE}.")
    String engine;

    @Option(names = "--workers", defaultValue = "2", description = "TaskManagers or Spark "
        + "workers, one core each (default 2).")
    int workers;

    @Option(names = "--state-dir", description = "Where the cluster's state, configuration and "
        + "logs go (default one per checkout: $TRADEOFF_HOME/cluster-ID or "
        + "~/.tradeoff/cluster-ID).")
    Path stateDir;

    @Option(names = "--timeout", defaultValue = "600",
        description = "Seconds to wait for the cluster to accept jobs (default ${DEFAULT-VALUE}; "
            + "a loaded machine can take minutes).")
    int timeout;

    @Option(names = "--job-timeout", description = "Flink only: seconds a job may wait for task "
        + "slots before it fails (Flink's slot.request.timeout; default 1800).")
    Integer jobTimeout;

    @Option(names = "--json", description = "JSON output.")
    boolean json;

    @Override
    public void run() {
      BeamRunner runner = engine(engine);
      Inputs.count("--workers", workers, 1, 64);
      Inputs.count("--timeout", timeout, 1, 86_400);
      if (jobTimeout != null) {
        if (runner != BeamRunner.FLINK) {
          throw new IllegalArgumentException("--job-timeout applies to --engine flink only, but "
              + "the engine was " + runner.cliName());
        }
        Inputs.count("--job-timeout", jobTimeout, 1, 86_400);
      }
      String classpath = System.getenv("TRADEOFF_CLUSTER_CLASSPATH");
      if (classpath == null) {
        classpath = System.getProperty("java.class.path");
      }
      String entryPoint = runner == BeamRunner.FLINK
          ? "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint"
          : "org.apache.spark.deploy.master.Master";
      try {
        Class.forName(entryPoint, false, ClusterCommand.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalArgumentException("cluster up --engine " + runner.cliName() + " needs "
            + (runner == BeamRunner.FLINK ? "flink-runtime" : "spark-core") + " on the class "
            + "path; run it through ./tradeoff, which adds the cluster runners' class path");
      }
      Path dir = stateDir(stateDir);
      Duration startUp = Duration.ofSeconds(timeout);
      LocalCluster c;
      if (runner == BeamRunner.FLINK) {
        Progress.of(spec).phase("starting a JobManager and " + workers + " TaskManagers (logs in "
            + dir.resolve("log") + ")");
        c = FlinkSessionCluster.up(dir, workers, classpath, new FlinkSessionCluster.Timeouts(
            startUp, Duration.ofSeconds(jobTimeout == null ? 1800 : jobTimeout)));
      } else {
        Progress.of(spec).phase("starting a Spark master and " + workers + " workers (logs in "
            + dir.resolve("log") + ")");
        c = SparkStandaloneCluster.up(dir, workers, classpath, startUp);
      }
      var o = spec.commandLine().getOut();
      if (json) {
        o.println(Json.write(Json.parse(c.json())));
      } else {
        o.println(c.runner().cliName() + (c.runner() == BeamRunner.FLINK ? " session cluster at "
            : " standalone cluster at ") + c.master() + " (" + c.workers()
            + (c.runner() == BeamRunner.FLINK ? " task managers" : " workers")
            + ", state and logs in " + c.dir() + "); submit with: tradeoff label --runner "
            + c.runner().cliName() + " --master " + c.master() + " ...");
      }
      o.flush();
    }

    private static BeamRunner engine(String name) {
      if (name.equals("flink")) {
        return BeamRunner.FLINK;
      }
      if (name.equals("spark")) {
        return BeamRunner.SPARK;
      }
      throw new IllegalArgumentException("--engine must be flink or spark, but was " + name);
    }
  }

  /** {@code cluster down}. */
  @Command(name = "down", mixinStandardHelpOptions = true,
      description = "Stop exactly the processes `cluster up` started.")
  static final class Down implements Runnable {
    @Spec CommandSpec spec;

    @Option(names = "--state-dir", description = "As given to cluster up (default the"
        + " checkout's, as for cluster up).")
    Path stateDir;

    @Option(names = "--json", description = "JSON output.")
    boolean json;

    @Override
    public void run() {
      var stopped = LocalCluster.down(stateDir(stateDir));
      var o = spec.commandLine().getOut();
      if (json) {
        o.println(Json.write(stopped.map(c -> Json.parse(c.json()))
            .orElse(Json.MAPPER.createObjectNode())));
      } else {
        o.println(stopped.map(c -> "stopped the " + c.runner().cliName() + " cluster at "
            + c.master() + " ("
            + c.processes().size() + " processes)").orElse("no cluster was running"));
      }
      o.flush();
    }
  }
}
