package dev.tradeoff.beam.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.beam.runner.BeamRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A running engine cluster on loopback that {@link FlinkSessionCluster#up} or
 * {@link SparkStandaloneCluster#up} started, as recorded in its state directory's
 * {@value #STATE}. {@link #down} stops exactly the recorded processes (each checked to still be
 * the JVM that was started, by its start instant) and the processes they started (Spark's
 * executors), whichever engine it is.
 *
 * @param runner the engine: {@link BeamRunner#FLINK} or {@link BeamRunner#SPARK}
 * @param master where jobs are submitted: the JobManager's REST address HOST:PORT (Beam's
 *     {@code --flinkMaster}), or the Spark master's URL {@code spark://HOST:PORT} (Beam's
 *     {@code --sparkMaster})
 * @param workers the number of TaskManagers or Spark workers
 * @param processes every started JVM, the master first
 * @param dir the state directory (configuration, logs, state file)
 */
public record LocalCluster(BeamRunner runner, String master, int workers,
    List<ClusterProcess> processes, Path dir) {

  /** The state file. */
  public static final String STATE = "cluster.json";

  private static final ObjectMapper JSON = new ObjectMapper();

  public LocalCluster {
    Require.that(runner == BeamRunner.FLINK || runner == BeamRunner.SPARK, "runner",
        "must be flink or spark", runner);
    processes = List.copyOf(processes);
  }

  /** The cluster as the JSON {@code cluster up --json} prints. */
  public String json() {
    ObjectNode n = JSON.createObjectNode();
    n.put("runner", runner.cliName());
    n.put("master", master);
    n.put("workers", workers);
    var ps = n.putArray("processes");
    for (ClusterProcess s : processes) {
      ps.addObject().put("role", s.role()).put("pid", s.pid())
          .put("startInstant", s.startInstant());
    }
    return n.toString();
  }

  /** The recorded cluster, if any. */
  public static Optional<LocalCluster> read(Path dir) {
    Path state = dir.resolve(STATE);
    if (!Files.isRegularFile(state)) {
      return Optional.empty();
    }
    try {
      JsonNode n = JSON.readTree(state.toFile());
      List<ClusterProcess> ps = new ArrayList<>();
      for (JsonNode p : n.get("processes")) {
        ps.add(new ClusterProcess(p.get("role").asText(), p.get("pid").asLong(),
            p.get("startInstant").asText()));
      }
      return Optional.of(new LocalCluster(BeamRunner.parse(n.get("runner").asText()),
          n.get("master").asText(), n.get("workers").asInt(), ps, dir));
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("cluster state " + state + " must be the file `tradeoff "
          + "cluster up` wrote, but could not be read: " + e.getMessage());
    }
  }

  /**
   * Stops exactly the processes {@code cluster up} recorded in {@code dir} (and what they
   * started) and removes the state file.
   *
   * @return the stopped cluster, empty if none was recorded
   */
  public static Optional<LocalCluster> down(Path dir) {
    Optional<LocalCluster> cluster = read(dir);
    cluster.ifPresent(c -> ClusterJvms.stop(c.processes()));
    deleteState(dir);
    return cluster;
  }

  /**
   * Checks that a master address, HOST:PORT or {@code spark://HOST:PORT}, accepts connections.
   *
   * @throws IllegalArgumentException naming the address if it does not
   */
  public static void requireReachable(String master) {
    Require.nonNull("master", master);
    String address = master.startsWith("spark://") ? master.substring("spark://".length())
        : master;
    String[] hp = address.split(":");
    Require.that(hp.length == 2, "master", "must be HOST:PORT or spark://HOST:PORT", master);
    int port;
    try {
      port = Integer.parseInt(hp[1]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("master must be HOST:PORT with a numeric port, but was "
          + master);
    }
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(hp[0], port), 2000);
    } catch (IOException | IllegalArgumentException e) {
      throw new IllegalArgumentException("master " + master + " must be reachable, but "
          + "connecting failed: " + e.getMessage());
    }
  }

  /** Refuses to start over a recorded cluster that still runs. */
  static void refuseIfRunning(Path dir) {
    Optional<LocalCluster> existing = read(dir);
    if (existing.isPresent() && existing.get().processes().stream()
        .anyMatch(ClusterProcess::alive)) {
      throw new IllegalArgumentException("a " + existing.get().runner().cliName() + " cluster is"
          + " already running (master " + existing.get().master() + "); run `tradeoff cluster "
          + "down` first");
    }
  }

  /** Records this cluster in its state directory (atomically). */
  void write() throws IOException {
    Path tmp = dir.resolve(STATE + ".tmp");
    Files.writeString(tmp, json());
    Files.move(tmp, dir.resolve(STATE), StandardCopyOption.ATOMIC_MOVE);
  }

  static void deleteState(Path dir) {
    try {
      Files.deleteIfExists(dir.resolve(STATE));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
