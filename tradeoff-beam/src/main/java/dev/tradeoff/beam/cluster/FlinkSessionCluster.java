package dev.tradeoff.beam.cluster;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.runner.BeamRunner;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Flink session cluster on loopback: one JobManager
 * ({@code org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint}) and N
 * TaskManagers ({@code org.apache.flink.runtime.taskexecutor.TaskManagerRunner}), each its own JVM,
 * started from the {@code flink-runtime} artifacts on the given class path (the ones the Beam Flink
 * runner resolves from Maven Central). {@link #up} waits until the JobManager's REST endpoint
 * reports every TaskManager registered, i.e. until the cluster accepts jobs; it records the
 * processes in {@value LocalCluster#STATE} under the state directory, and
 * {@link LocalCluster#down} stops exactly those processes.
 *
 * <p>The TaskManagers load classes parent-first from the same class path, so a submitted Beam job
 * only stages its own jar.
 *
 * <p><b>Logs.</b> Each JVM logs through SLF4J's simple backend to {@code log/ROLE.log} in the state
 * directory (its standard output and error go to {@code ROLE.out} and {@code ROLE.err}): the
 * {@code slf4j-simple} jar found on the class path is put first, ahead of any no-operation binding,
 * so Flink's own account of a failed start is kept. A start that fails names the process, its exit
 * status and the last lines of its log ({@link ClusterStartException}); a retry first removes the
 * logs of the previous attempt.
 */
public final class FlinkSessionCluster {

  /**
   * How long to wait: for the cluster to accept jobs after its JVMs start, and for a job's task
   * slots (Flink's {@code slot.request.timeout}, after which a job that got no slot fails).
   */
  public record Timeouts(Duration startUp, Duration slots) {
    /** Defaults that hold on a loaded machine (a start took up to 7 minutes at load 127). */
    public static final Timeouts DEFAULT = new Timeouts(Duration.ofMinutes(10),
        Duration.ofMinutes(30));

    public Timeouts {
      Require.that(!startUp.isNegative() && !startUp.isZero(), "startUp", "must be positive",
          startUp);
      Require.that(!slots.isNegative() && !slots.isZero(), "slots", "must be positive", slots);
    }
  }

  private FlinkSessionCluster() {}

  /**
   * Starts the cluster and waits until every TaskManager has registered.
   *
   * @param dir the state directory; refused if it records a cluster that is still running
   * @param workers TaskManagers, each with one task slot
   * @param classpath the class path of the JVMs (flink-runtime and the job's classes)
   * @param timeouts how long to wait for readiness, and for a job's task slots
   * @throws ClusterStartException if the cluster does not become ready (what was started is
   *     stopped)
   */
  public static LocalCluster up(Path dir, int workers, String classpath, Timeouts timeouts) {
    return up(dir, workers, classpath, timeouts, List.of());
  }

  /** {@link #up}, with extra lines of Flink configuration (which override the defaults). */
  static LocalCluster up(Path dir, int workers, String classpath, Timeouts timeouts,
      List<String> extraConfig) {
    Require.positive("workers", workers);
    Require.nonNull("classpath", classpath);
    Require.nonNull("timeouts", timeouts);
    int rpc = ClusterJvms.freePort();
    int rest = ClusterJvms.freePort();
    Path conf = dir.resolve("conf");
    List<String> lines = new ArrayList<>(config(rpc, rest, workers, timeouts));
    lines.addAll(extraConfig);
    List<ClusterJvms.Jvm> jvms = new ArrayList<>();
    List<String> args = List.of("--configDir", conf.toString());
    jvms.add(new ClusterJvms.Jvm("jobmanager", 512,
        "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint", args, Map.of()));
    for (int i = 0; i < workers; i++) {
      jvms.add(new ClusterJvms.Jvm("taskmanager-" + i, 640,
          "org.apache.flink.runtime.taskexecutor.TaskManagerRunner", args, Map.of()));
    }
    String master = "127.0.0.1:" + rest;
    return ClusterJvms.launch(dir, BeamRunner.FLINK, master, workers, () -> {
      Files.createDirectories(conf);
      Files.writeString(conf.resolve("flink-conf.yaml"), String.join("\n", lines) + "\n");
    }, jvms, ClusterJvms.withLogging(classpath),
        new ClusterJvms.Readiness(URI.create("http://" + master + "/taskmanagers"),
            n -> n.path("taskmanagers").size()), timeouts.startUp());
  }

  private static List<String> config(int rpc, int rest, int workers, Timeouts timeouts) {
    return List.of(
        "jobmanager.rpc.address: 127.0.0.1",
        "jobmanager.rpc.port: " + rpc,
        "jobmanager.bind-host: 127.0.0.1",
        "rest.address: 127.0.0.1",
        "rest.bind-address: 127.0.0.1",
        "rest.port: " + rest,
        "taskmanager.host: 127.0.0.1",
        "taskmanager.bind-host: 127.0.0.1",
        "taskmanager.numberOfTaskSlots: 1",
        "taskmanager.cpu.cores: 1",
        "taskmanager.memory.framework.heap.size: 64m",
        "taskmanager.memory.task.heap.size: 384m",
        "taskmanager.memory.managed.size: 32m",
        "taskmanager.memory.framework.off-heap.size: 64m",
        "taskmanager.memory.task.off-heap.size: 0m",
        "taskmanager.memory.network.min: 128m",
        "taskmanager.memory.network.max: 128m",
        "taskmanager.memory.jvm-metaspace.size: 256m",
        "taskmanager.memory.jvm-overhead.min: 64m",
        "taskmanager.memory.jvm-overhead.max: 64m",
        "jobmanager.memory.process.size: 768m",
        "classloader.resolve-order: parent-first",
        "classloader.check-leaked-classloader: false",
        "parallelism.default: " + workers,
        "heartbeat.timeout: 120000",
        "slot.request.timeout: " + timeouts.slots().toMillis(),
        "resourcemanager.taskmanager-registration.timeout: " + timeouts.startUp().toMillis());
  }
}
