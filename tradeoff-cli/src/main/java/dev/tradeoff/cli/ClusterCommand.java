package dev.tradeoff.cli;

import dev.tradeoff.beam.cluster.FlinkSessionCluster;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff cluster up|down}: a Flink session cluster (a JobManager and N TaskManagers, each
 * its own JVM on 127.0.0.1) for {@code label --runner flink --master HOST:PORT}; {@code down}
 * stops exactly the processes {@code up} recorded.
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

  /** The state directory: $TRADEOFF_HOME/cluster, or ~/.tradeoff/cluster. */
  static Path stateDir(Path given) {
    if (given != null) {
      return given;
    }
    String home = System.getenv("TRADEOFF_HOME");
    return (home != null ? Path.of(home) : Path.of(System.getProperty("user.home"), ".tradeoff"))
        .resolve("cluster");
  }

  /** {@code cluster up}. */
  @Command(name = "up", mixinStandardHelpOptions = true,
      description = "Start a JobManager and --workers TaskManagers; wait until jobs are accepted.")
  static final class Up implements Runnable {
    @Spec CommandSpec spec;

    @Option(names = "--workers", defaultValue = "2", description = "TaskManagers (default 2).")
    int workers;

    @Option(names = "--state-dir", description = "Where the cluster's state, configuration and "
        + "logs go (default $TRADEOFF_HOME/cluster or ~/.tradeoff/cluster).")
    Path stateDir;

    @Option(names = "--timeout", defaultValue = "180",
        description = "Seconds to wait for the cluster (default 180).")
    int timeout;

    @Option(names = "--json", description = "JSON output.")
    boolean json;

    @Override
    public void run() {
      Inputs.count("--workers", workers, 1, 64);
      Inputs.count("--timeout", timeout, 1, 3600);
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
      FlinkSessionCluster.Cluster c = FlinkSessionCluster.up(stateDir(stateDir), workers,
          classpath,
          Duration.ofSeconds(timeout));
      var o = spec.commandLine().getOut();
      if (json) {
        o.println(Json.write(Json.parse(FlinkSessionCluster.json(c))));
      } else {
        o.println("flink session cluster at " + c.master() + " (" + c.workers()
            + " task managers); submit with: tradeoff label --runner flink --master "
            + c.master() + " ...");
      }
      o.flush();
    }
  }

  /** {@code cluster down}. */
  @Command(name = "down", mixinStandardHelpOptions = true,
      description = "Stop exactly the processes `cluster up` started.")
  static final class Down implements Runnable {
    @Spec CommandSpec spec;

    @Option(names = "--state-dir", description = "As given to cluster up.")
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
