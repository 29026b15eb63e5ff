package dev.tradeoff.cli.cluster;

import dev.tradeoff.beam.cluster.FlinkSessionCluster;
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
 * {@code tradeoff cluster up|down}: a Flink session cluster (a JobManager and N TaskManagers, each
 * its own JVM on 127.0.0.1) for {@code label --runner flink --master HOST:PORT}; {@code down}
 * stops exactly the processes {@code up} recorded. Each checkout has its own state directory
 * (logs included); a start that fails says which process exited, with what status, and what its
 * log says ({@link dev.tradeoff.beam.cluster.ClusterStartException}, exit 1).
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
    description = "Start or stop a local multi-process Flink session cluster on loopback.",
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
      description = "Start a JobManager and --workers TaskManagers; wait until jobs are accepted.")
  static final class Up implements Runnable {
    @Spec CommandSpec spec;

    @Option(names = "--workers", defaultValue = "2", description = "TaskManagers (default 2).")
    int workers;

    @Option(names = "--state-dir", description = "Where the cluster's state, configuration and "
        + "logs go (default one per checkout: $TRADEOFF_HOME/cluster-ID or "
        + "~/.tradeoff/cluster-ID).")
    Path stateDir;

    @Option(names = "--timeout", defaultValue = "600",
        description = "Seconds to wait for the cluster to accept jobs (default ${DEFAULT-VALUE}; "
            + "a loaded machine can take minutes).")
    int timeout;

    @Option(names = "--job-timeout", defaultValue = "1800",
        description = "Seconds a job may wait for task slots before it fails (Flink's "
            + "slot.request.timeout; default ${DEFAULT-VALUE}).")
    int jobTimeout;

    @Option(names = "--json", description = "JSON output.")
    boolean json;

    @Override
    public void run() {
      Inputs.count("--workers", workers, 1, 64);
      Inputs.count("--timeout", timeout, 1, 86_400);
      Inputs.count("--job-timeout", jobTimeout, 1, 86_400);
      String classpath = System.getenv("TRADEOFF_CLUSTER_CLASSPATH");
      if (classpath == null) {
        classpath = System.getProperty("java.class.path");
      }
      try {
        Class.forName("org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint",
            false, ClusterCommand.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalArgumentException("cluster up needs flink-runtime on the class path; "
            + "run it through ./tradeoff, which adds the Flink runner's class path");
      }
      Path dir = stateDir(stateDir);
      Progress.of(spec).phase("starting a JobManager and " + workers + " TaskManagers (logs in "
          + dir.resolve("log") + ")");
      FlinkSessionCluster.Cluster c = FlinkSessionCluster.up(dir, workers, classpath,
          new FlinkSessionCluster.Timeouts(Duration.ofSeconds(timeout),
              Duration.ofSeconds(jobTimeout)));
      var o = spec.commandLine().getOut();
      if (json) {
        o.println(Json.write(Json.parse(FlinkSessionCluster.json(c))));
      } else {
        o.println("flink session cluster at " + c.master() + " (" + c.workers()
            + " task managers, state and logs in " + c.dir() + "); submit with: tradeoff label"
            + " --runner flink --master " + c.master() + " ...");
      }
      o.flush();
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
      var stopped = FlinkSessionCluster.down(stateDir(stateDir));
      var o = spec.commandLine().getOut();
      if (json) {
        o.println(Json.write(stopped.map(c -> Json.parse(FlinkSessionCluster.json(c)))
            .orElse(Json.MAPPER.createObjectNode())));
      } else {
        o.println(stopped.map(c -> "stopped the cluster at " + c.master() + " ("
            + c.processes().size() + " processes)").orElse("no cluster was running"));
      }
      o.flush();
    }
  }
}
