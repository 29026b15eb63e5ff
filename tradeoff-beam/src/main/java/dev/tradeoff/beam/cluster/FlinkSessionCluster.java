package dev.tradeoff.beam.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tradeoff.accounting.Require;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A Flink session cluster on loopback: one JobManager
 * ({@code org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint}) and N
 * TaskManagers ({@code org.apache.flink.runtime.taskexecutor.TaskManagerRunner}), each its own JVM,
 * started from the {@code flink-runtime} artifacts on the given class path (the ones the Beam Flink
 * runner resolves from Maven Central). {@link #up} waits until the JobManager's REST endpoint
 * reports every TaskManager registered, i.e. until the cluster accepts jobs; it records the
 * processes in {@code cluster.json} under the state directory, and {@link #down} stops exactly
 * those processes (each checked to still be the JVM that was started, by its start instant).
 *
 * <p>The TaskManagers load classes parent-first from the same class path, so a submitted Beam job
 * only stages its own jar.
 */
public final class FlinkSessionCluster {

  /** The state file. */
  public static final String STATE = "cluster.json";

  /** The Java 17 module flags Flink needs (the same Spark documents). */
  static final List<String> JAVA17_OPENS = List.of(
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.text=ALL-UNNAMED",
      "--add-opens=java.base/java.time=ALL-UNNAMED");

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A running cluster.
   *
   * @param master the JobManager's REST address HOST:PORT (Beam's {@code --flinkMaster})
   * @param workers the number of TaskManagers
   * @param processes every started JVM, JobManager first
   * @param dir the state directory (configuration, logs, state file)
   */
  public record Cluster(String master, int workers, List<Started> processes, Path dir) {
    public Cluster {
      processes = List.copyOf(processes);
    }
  }

  /** One started JVM: its role, pid and start instant (to recognise it later). */
  public record Started(String role, long pid, String startInstant) {}

  private FlinkSessionCluster() {}

  /**
   * Starts the cluster and waits until every TaskManager has registered.
   *
   * @param dir the state directory; refused if it records a cluster that is still running
   * @param workers TaskManagers, each with one task slot
   * @param classpath the class path of the JVMs (flink-runtime and the job's classes)
   * @param timeout how long to wait for readiness
   * @throws IllegalStateException if the cluster does not become ready (what was started is stopped)
   */
  public static Cluster up(Path dir, int workers, String classpath, Duration timeout) {
    Require.positive("workers", workers);
    Require.nonNull("classpath", classpath);
    Optional<Cluster> existing = read(dir);
    if (existing.isPresent() && existing.get().processes().stream().anyMatch(p -> alive(p))) {
      throw new IllegalArgumentException("a cluster is already running (master "
          + existing.get().master() + "); run `tradeoff cluster down` first");
    }
    int rpc = freePort();
    int rest = freePort();
    Path conf = dir.resolve("conf");
    Path logs = dir.resolve("log");
    List<Started> started = new ArrayList<>();
    try {
      Files.createDirectories(conf);
      Files.createDirectories(logs);
      Files.writeString(conf.resolve("flink-conf.yaml"), config(rpc, rest, workers));
      started.add(start("jobmanager", conf, logs, classpath, 512,
          "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint"));
      for (int w = 0; w < workers; w++) {
        started.add(start("taskmanager-" + w, conf, logs, classpath, 640,
            "org.apache.flink.runtime.taskexecutor.TaskManagerRunner"));
      }
      Cluster cluster = new Cluster("127.0.0.1:" + rest, workers, started, dir);
      write(cluster);
      awaitReady(cluster, timeout);
      return cluster;
    } catch (IOException | RuntimeException e) {
      stop(started);
      deleteState(dir);
      throw e instanceof IOException io ? new UncheckedIOException(io)
          : (RuntimeException) e;
    }
  }

  /**
   * Stops exactly the processes {@link #up} recorded in {@code dir} and removes the state file.
   *
   * @return the stopped cluster, empty if none was recorded
   */
  public static Optional<Cluster> down(Path dir) {
    Optional<Cluster> cluster = read(dir);
    cluster.ifPresent(c -> stop(c.processes()));
    deleteState(dir);
    return cluster;
  }

  /** The recorded cluster, if any. */
  public static Optional<Cluster> read(Path dir) {
    Path state = dir.resolve(STATE);
    if (!Files.isRegularFile(state)) {
      return Optional.empty();
    }
    try {
      JsonNode n = JSON.readTree(state.toFile());
      List<Started> ps = new ArrayList<>();
      for (JsonNode p : n.get("processes")) {
        ps.add(new Started(p.get("role").asText(), p.get("pid").asLong(),
            p.get("startInstant").asText()));
      }
      return Optional.of(new Cluster(n.get("master").asText(), n.get("workers").asInt(), ps,
          dir));
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("cluster state " + state + " must be the file `tradeoff "
          + "cluster up` wrote, but could not be read: " + e.getMessage());
    }
  }

  /** The cluster as the JSON `cluster up --json` prints. */
  public static String json(Cluster cluster) {
    ObjectNode n = JSON.createObjectNode();
    n.put("runner", "flink");
    n.put("master", cluster.master());
    n.put("workers", cluster.workers());
    var ps = n.putArray("processes");
    for (Started s : cluster.processes()) {
      ps.addObject().put("role", s.role()).put("pid", s.pid())
          .put("startInstant", s.startInstant());
    }
    return n.toString();
  }

  /**
   * Checks that HOST:PORT accepts connections.
   *
   * @throws IllegalArgumentException naming the address if it does not
   */
  public static void requireReachable(String master) {
    String[] hp = master.split(":");
    Require.that(hp.length == 2, "master", "must be HOST:PORT", master);
    int port;
    try {
      port = Integer.parseInt(hp[1]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("master must be HOST:PORT with a numeric port, but was "
          + master);
    }
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(hp[0], port), 2000);
    } catch (IOException e) {
      throw new IllegalArgumentException("master " + master + " must be reachable, but "
          + "connecting failed: " + e.getMessage());
    }
  }

  private static String config(int rpc, int rest, int workers) {
    return String.join("\n",
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
        "") ;
  }

  private static Started start(String role, Path conf, Path logs, String classpath, int heapMb,
      String main) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + heapMb + "m");
    cmd.add("-XX:MaxDirectMemorySize=320m");
    cmd.add("-XX:MaxMetaspaceSize=256m");
    cmd.add("-XX:+UseSerialGC");
    cmd.addAll(JAVA17_OPENS);
    cmd.add("-Dtradeoff.cluster.role=" + role);
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add(main);
    cmd.add("--configDir");
    cmd.add(conf.toString());
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .redirectOutput(logs.resolve(role + ".out").toFile())
        .redirectError(logs.resolve(role + ".err").toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process p = pb.start();
    String instant = p.info().startInstant().map(Object::toString).orElse("");
    return new Started(role, p.pid(), instant);
  }

  private static void awaitReady(Cluster cluster, Duration timeout) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      for (Started s : cluster.processes()) {
        if (!alive(s)) {
          throw new IllegalStateException("cluster " + s.role() + " exited during start-up; see "
              + cluster.dir().resolve("log").resolve(s.role() + ".err"));
        }
      }
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://"
            + cluster.master() + "/taskmanagers")).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          int registered = JSON.readTree(r.body()).path("taskmanagers").size();
          if (registered >= cluster.workers()) {
            return;
          }
          last = registered + " of " + cluster.workers() + " task managers registered";
        }
      } catch (IOException e) {
        last = e.toString();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the cluster", e);
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the cluster", e);
      }
    }
    throw new IllegalStateException("the cluster did not accept jobs within " + timeout
        + " (" + last + "); logs in " + cluster.dir().resolve("log"));
  }

  private static boolean alive(Started s) {
    return ProcessHandle.of(s.pid()).filter(ProcessHandle::isAlive)
        .filter(h -> s.startInstant().isEmpty() || h.info().startInstant()
            .map(i -> i.toString().equals(s.startInstant())).orElse(false))
        .isPresent();
  }

  private static void stop(List<Started> processes) {
    List<ProcessHandle> handles = new ArrayList<>();
    for (int i = processes.size() - 1; i >= 0; i--) {
      Started s = processes.get(i);
      if (alive(s)) {
        ProcessHandle h = ProcessHandle.of(s.pid()).orElseThrow();
        h.destroy();
        handles.add(h);
      }
    }
    for (ProcessHandle h : handles) {
      try {
        h.onExit().get(20, java.util.concurrent.TimeUnit.SECONDS);
      } catch (Exception e) {
        h.destroyForcibly();
      }
    }
  }

  private static void write(Cluster cluster) throws IOException {
    Path tmp = cluster.dir().resolve(STATE + ".tmp");
    Files.writeString(tmp, json(cluster));
    Files.move(tmp, cluster.dir().resolve(STATE),
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
  }

  private static void deleteState(Path dir) {
    try {
      Files.deleteIfExists(dir.resolve(STATE));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
