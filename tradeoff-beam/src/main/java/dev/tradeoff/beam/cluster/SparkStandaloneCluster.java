package dev.tradeoff.beam.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.runner.BeamRunner;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A Spark standalone cluster on loopback: one master ({@code org.apache.spark.deploy.master.Master})
 * and N workers ({@code org.apache.spark.deploy.worker.Worker}), each its own JVM, started from the
 * {@code spark-core} artifacts on the given class path (the ones the Beam Spark runner resolves
 * from Maven Central; there is no Spark distribution to install). {@link #up} waits until the
 * master's status page ({@code /json/} on its web UI) lists every worker ALIVE, i.e. until the
 * cluster accepts applications; it records the processes in {@value LocalCluster#STATE} under the
 * state directory, and {@link LocalCluster#down} stops exactly those processes and the executors
 * their workers started.
 *
 * <p><b>The executors' class path.</b> A standalone worker starts each application's executors as
 * JVMs of its own, with the class path Spark's launcher builds from {@code SPARK_HOME}: the jars
 * in {@code SPARK_HOME/jars} (which must exist) followed by {@code SPARK_DIST_CLASSPATH}, the
 * variable through which a Spark distribution is given a class path it does not ship (Spark's
 * "Hadoop free" builds use it), and it needs {@code SPARK_SCALA_VERSION} when {@code SPARK_HOME}
 * is not a Spark build. So the state directory holds {@code spark-home/} with an empty
 * {@code jars/}, and every JVM of the cluster is given {@code SPARK_HOME} = that directory,
 * {@code SPARK_DIST_CLASSPATH} = the cluster's class path, {@code SPARK_SCALA_VERSION} = the
 * Scala version in the name of the {@code spark-core} jar on it, and {@code SPARK_LOCAL_IP} =
 * 127.0.0.1. The executors thus load Spark, Beam and Tradeoff from the same jars as the master and
 * workers (parent-first, Spark's default), and a submitted Beam job stages only its own jar.
 *
 * <p><b>Resources.</b> Each worker offers one core and 1 GiB to executors, so an application gets
 * one executor per worker (Spark's default executor memory, 1 GiB); the master and worker JVMs
 * themselves run with 256 MiB heaps.
 *
 * <p><b>Logs.</b> The master and workers log to {@code log/ROLE.log} as
 * {@link FlinkSessionCluster}'s JVMs do; each executor's standard output and error are in
 * {@code work/worker-I/APP/EXECUTOR/} under the state directory (removed at the next start).
 */
public final class SparkStandaloneCluster {

  /** Memory each worker offers to executors. */
  static final String WORKER_MEMORY = "1024M";

  private static final Pattern SPARK_CORE = Pattern.compile("spark-core_(\\d+\\.\\d+)-[^/]*\\.jar");

  private SparkStandaloneCluster() {}

  /**
   * Starts the cluster and waits until every worker has registered with the master.
   *
   * @param dir the state directory; refused if it records a cluster that is still running
   * @param workers workers, each offering one core
   * @param classpath the class path of the JVMs and the executors (spark-core, the Beam Spark
   *     runner and the job's classes)
   * @param startUp how long to wait for the workers to register
   * @return the cluster, whose {@link LocalCluster#master()} is {@code spark://127.0.0.1:PORT}
   * @throws IllegalArgumentException if {@code spark-core} is not on the class path
   * @throws ClusterStartException if the cluster does not become ready (what was started is
   *     stopped)
   */
  public static LocalCluster up(Path dir, int workers, String classpath, Duration startUp) {
    Require.positive("workers", workers);
    Require.nonNull("classpath", classpath);
    Require.that(!startUp.isNegative() && !startUp.isZero(), "startUp", "must be positive",
        startUp);
    String jvmClasspath = ClusterJvms.withLogging(classpath);
    int port = ClusterJvms.freePort();
    int webUi = ClusterJvms.freePort();
    String master = "spark://127.0.0.1:" + port;
    Path home = dir.resolve("spark-home");
    Path work = dir.resolve("work");
    Map<String, String> env = Map.of("SPARK_HOME", home.toString(),
        "SPARK_DIST_CLASSPATH", jvmClasspath,
        "SPARK_SCALA_VERSION", scalaVersion(classpath),
        "SPARK_LOCAL_IP", "127.0.0.1");
    List<ClusterJvms.Jvm> jvms = new ArrayList<>();
    jvms.add(new ClusterJvms.Jvm("master", 256, "org.apache.spark.deploy.master.Master",
        List.of("--host", "127.0.0.1", "--port", String.valueOf(port),
            "--webui-port", String.valueOf(webUi)), env));
    for (int i = 0; i < workers; i++) {
      String role = "worker-" + i;
      jvms.add(new ClusterJvms.Jvm(role, 256, "org.apache.spark.deploy.worker.Worker",
          List.of("--host", "127.0.0.1", "--webui-port", String.valueOf(ClusterJvms.freePort()),
              "--cores", "1", "--memory", WORKER_MEMORY,
              "--work-dir", work.resolve(role).toString(), master), env));
    }
    return ClusterJvms.launch(dir, BeamRunner.SPARK, master, workers, () -> {
      deleteTree(work);
      Files.createDirectories(home.resolve("jars"));
      Files.createDirectories(work);
    }, jvms, jvmClasspath,
        new ClusterJvms.Readiness(URI.create("http://127.0.0.1:" + webUi + "/json/"),
            SparkStandaloneCluster::aliveWorkers), startUp);
  }

  /** The workers the master's status page lists as ALIVE. */
  static int aliveWorkers(JsonNode status) {
    int alive = 0;
    for (JsonNode w : status.path("workers")) {
      if (w.path("state").asText().equals("ALIVE")) {
        alive++;
      }
    }
    return alive;
  }

  /**
   * The Scala version of the {@code spark-core_SCALA} jar on the class path.
   *
   * @throws IllegalArgumentException if there is none
   */
  static String scalaVersion(String classpath) {
    for (String entry : classpath.split(File.pathSeparator)) {
      Matcher m = SPARK_CORE.matcher(entry.replace(File.separatorChar, '/'));
      if (m.find()) {
        return m.group(1);
      }
    }
    throw new IllegalArgumentException("classpath must hold spark-core (the Spark runner's "
        + "class path: build the command line with -Pcluster-runners), but has no spark-core_"
        + "SCALA-VERSION jar");
  }

  /** Removes the previous start's executor directories. */
  private static void deleteTree(Path root) throws IOException {
    if (!Files.isDirectory(root)) {
      return;
    }
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
