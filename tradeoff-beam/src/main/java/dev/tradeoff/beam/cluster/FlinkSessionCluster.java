package dev.tradeoff.beam.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tradeoff.accounting.internal.Require;
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
 *
 * <p><b>Logs.</b> Each JVM logs through SLF4J's simple backend to {@code log/ROLE.log} in the state
 * directory (its standard output and error go to {@code ROLE.out} and {@code ROLE.err}): the
 * {@code slf4j-simple} jar found on the class path is put first, ahead of any no-operation binding,
 * so Flink's own account of a failed start is kept. A start that fails names the process, its exit
 * status and the last lines of its log ({@link ClusterStartException}); a retry first removes the
 * logs of the previous attempt.
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

  /** Lines of a failed process's log quoted in the failure. */
  static final int EXCERPT_LINES = 3;

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
  public static Cluster up(Path dir, int workers, String classpath, Timeouts timeouts) {
    return up(dir, workers, classpath, timeouts, List.of());
  }

  /** {@link #up}, with extra lines of Flink configuration (which override the defaults). */
  static Cluster up(Path dir, int workers, String classpath, Timeouts timeouts,
      List<String> extraConfig) {
    Require.positive("workers", workers);
    Require.nonNull("classpath", classpath);
    Require.nonNull("timeouts", timeouts);
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
    List<Process> processes = new ArrayList<>();
    String jvmClasspath = withLogging(classpath);
    try {
      Files.createDirectories(conf);
      clean(logs);
      Files.createDirectories(logs);
      List<String> lines = new ArrayList<>(config(rpc, rest, workers, timeouts));
      lines.addAll(extraConfig);
      Files.writeString(conf.resolve("flink-conf.yaml"), String.join("\n", lines) + "\n");
      for (int i = 0; i <= workers; i++) {
        String role = i == 0 ? "jobmanager" : "taskmanager-" + (i - 1);
        Process p = start(role, conf, logs, jvmClasspath, i == 0 ? 512 : 640, i == 0
            ? "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint"
            : "org.apache.flink.runtime.taskexecutor.TaskManagerRunner");
        processes.add(p);
        started.add(new Started(role, p.pid(),
            p.info().startInstant().map(Object::toString).orElse("")));
      }
      Cluster cluster = new Cluster("127.0.0.1:" + rest, workers, started, dir);
      write(cluster);
      awaitReady(cluster, processes, timeouts.startUp());
      return cluster;
    } catch (IOException | RuntimeException e) {
      stop(started);
      processes.forEach(Process::destroyForcibly);
      deleteState(dir);
      if (e instanceof ClusterStartException c) {
        throw new ClusterStartException(c.getMessage(), started);
      }
      throw e instanceof IOException io ? new UncheckedIOException(io)
          : (RuntimeException) e;
    }
  }

  /**
   * The JVMs' class path: {@code slf4j-simple} first (so it, not a no-operation binding earlier on
   * the path, receives Flink's logging), no {@code slf4j-nop}.
   */
  static String withLogging(String classpath) {
    List<String> logging = new ArrayList<>();
    List<String> rest = new ArrayList<>();
    for (String entry : classpath.split(java.io.File.pathSeparator)) {
      String file = Path.of(entry).getFileName() == null ? entry
          : Path.of(entry).getFileName().toString();
      if (file.startsWith("slf4j-simple-")) {
        logging.add(entry);
      } else if (!file.startsWith("slf4j-nop-")) {
        rest.add(entry);
      }
    }
    logging.addAll(rest);
    return String.join(java.io.File.pathSeparator, logging);
  }

  /** Removes the files a previous start left in {@code logs} (stale logs of more workers). */
  private static void clean(Path logs) throws IOException {
    if (!Files.isDirectory(logs)) {
      return;
    }
    try (var files = Files.list(logs)) {
      for (Path f : files.toList()) {
        String n = f.getFileName().toString();
        if (Files.isRegularFile(f) && (n.endsWith(".log") || n.endsWith(".out")
            || n.endsWith(".err"))) {
          Files.delete(f);
        }
      }
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

  private static Process start(String role, Path conf, Path logs, String classpath, int heapMb,
      String main) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + heapMb + "m");
    cmd.add("-XX:MaxDirectMemorySize=320m");
    cmd.add("-XX:MaxMetaspaceSize=256m");
    cmd.add("-XX:+UseSerialGC");
    cmd.addAll(JAVA17_OPENS);
    cmd.add("-Dtradeoff.cluster.role=" + role);
    Path log = logs.resolve(role + ".log");
    cmd.add("-Dlog.file=" + log);
    cmd.add("-Dorg.slf4j.simpleLogger.logFile=" + log);
    cmd.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=info");
    cmd.add("-Dorg.slf4j.simpleLogger.showDateTime=true");
    cmd.add("-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSSZ");
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add(main);
    cmd.add("--configDir");
    cmd.add(conf.toString());
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .redirectOutput(logs.resolve(role + ".out").toFile())
        .redirectError(logs.resolve(role + ".err").toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    return pb.start();
  }

  private static void awaitReady(Cluster cluster, List<Process> processes, Duration timeout) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      for (int i = 0; i < processes.size(); i++) {
        Process p = processes.get(i);
        if (!p.isAlive()) {
          throw exited(cluster, cluster.processes().get(i).role(), p);
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
    throw new ClusterStartException("the cluster did not accept jobs within "
        + timeout.toSeconds() + " s (" + last + "); on a loaded machine give it longer with"
        + " --timeout SECONDS; logs in " + cluster.dir().resolve("log"), cluster.processes());
  }

  /** The failure of a process that exited during start-up: its status and its log's last lines. */
  private static ClusterStartException exited(Cluster cluster, String role, Process p) {
    Path logs = cluster.dir().resolve("log");
    Path log = logs.resolve(role + ".log");
    List<String> excerpt = excerpt(log);
    if (excerpt.isEmpty()) {
      log = logs.resolve(role + ".err");
      excerpt = excerpt(log);
    }
    return new ClusterStartException("cluster " + role + " exited with status " + p.exitValue()
        + " during start-up" + (excerpt.isEmpty() ? " and logged nothing"
            : "; " + log + " says: " + String.join(" | ", excerpt))
        + " (if the machine is loaded, a longer --timeout may help; logs in " + logs + ")",
        cluster.processes());
  }

  /** A line as the simple back-end writes it: time, [thread], level, logger - message. */
  private static final java.util.regex.Pattern LOGGED = java.util.regex.Pattern.compile(
      "^\\S+ \\[[^\\]]*\\] (ERROR|WARN|INFO|DEBUG|TRACE) (?:\\S*\\.)?(\\S+) - (.*)$");

  /**
   * What a log says about a failure, in at most {@link #EXCERPT_LINES} lines: its first errors
   * and the causes under them ({@code Caused by:}), in order, each as "Logger: message"; without
   * any, its last lines that say something (stack frames and SLF4J's notices left out). Empty if
   * the log is missing or empty.
   */
  static List<String> excerpt(Path log) {
    List<String> lines;
    try {
      lines = new String(Files.readAllBytes(log), java.nio.charset.StandardCharsets.UTF_8)
          .lines().toList();
    } catch (IOException e) {
      return List.of();
    }
    List<String> errors = new ArrayList<>();
    List<String> telling = new ArrayList<>();
    for (String line : lines) {
      String t = line.strip();
      java.util.regex.Matcher m = LOGGED.matcher(t);
      if (m.matches() && m.group(1).equals("ERROR")) {
        errors.add(shorten(m.group(2) + ": " + m.group(3)));
      } else if (t.startsWith("Caused by: ")) {
        errors.add(shorten(t));
      }
      if (!t.isEmpty() && !t.startsWith("at ") && !t.matches("\\.\\.\\. \\d+ more")
          && !t.startsWith("SLF4J:")) {
        telling.add(shorten(t));
      }
    }
    return errors.isEmpty()
        ? telling.subList(Math.max(0, telling.size() - EXCERPT_LINES), telling.size())
        : errors.subList(0, Math.min(EXCERPT_LINES, errors.size()));
  }

  private static String shorten(String line) {
    return line.length() > 300 ? line.substring(0, 300) + "..." : line;
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
