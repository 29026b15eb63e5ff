package dev.tradeoff.beam.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tradeoff.beam.runner.BeamRunner;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How {@link FlinkSessionCluster} and {@link SparkStandaloneCluster} start their JVMs, wait for
 * them and stop them: each JVM logs through SLF4J's simple back-end to {@code log/ROLE.log} in the
 * state directory (standard output and error to {@code ROLE.out} and {@code ROLE.err}); the
 * cluster is recorded before it is awaited, so a {@code down} from another shell finds it; a
 * start that fails stops everything it started and says which process exited, with what status,
 * and what its log says.
 */
final class ClusterJvms {

  /**
   * The Java 17 module flags Flink and Spark need (the list Spark's {@code JavaModuleOptions}
   * gives).
   */
  static final List<String> JAVA17_OPENS = List.of(
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
      "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
      "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
      "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
      "--add-opens=java.base/java.text=ALL-UNNAMED", "--add-opens=java.base/java.time=ALL-UNNAMED",
      "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED");

  /** Lines of a failed process's log quoted in the failure. */
  static final int EXCERPT_LINES = 3;

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One JVM of a cluster.
   *
   * @param role its name in the state file and its log files' names
   * @param heapMb its maximum heap
   * @param mainClass its entry point
   * @param args the entry point's arguments
   * @param env variables added to its environment
   */
  record Jvm(String role, int heapMb, String mainClass, List<String> args,
      Map<String, String> env) {
    Jvm {
      args = List.copyOf(args);
      env = Map.copyOf(env);
    }
  }

  /**
   * When a cluster accepts jobs: the JSON at {@code uri} (the master's own status page) says how
   * many workers have registered.
   */
  record Readiness(URI uri, ToIntFunction<JsonNode> registered) {}

  /** Writes an engine's configuration before its JVMs start. */
  @FunctionalInterface
  interface Setup {
    void write() throws IOException;
  }

  private ClusterJvms() {}

  /**
   * Starts {@code jvms} (the master first) after {@code setup}, records them, and waits until
   * {@code readiness} counts {@code workers} workers.
   *
   * @throws ClusterStartException if a JVM exits first or the deadline passes (everything started
   *     is stopped and the state file removed)
   */
  static LocalCluster launch(Path dir, BeamRunner runner, String master, int workers,
      Setup setup, List<Jvm> jvms, String classpath, Readiness readiness, Duration timeout) {
    LocalCluster.refuseIfRunning(dir);
    Path logs = dir.resolve("log");
    List<ClusterProcess> started = new ArrayList<>();
    List<Process> processes = new ArrayList<>();
    try {
      clean(logs);
      Files.createDirectories(logs);
      setup.write();
      for (Jvm jvm : jvms) {
        Process p = start(jvm, logs, classpath);
        processes.add(p);
        started.add(new ClusterProcess(jvm.role(), p.pid(),
            p.info().startInstant().map(Object::toString).orElse("")));
      }
      LocalCluster cluster = new LocalCluster(runner, master, workers, started, dir);
      cluster.write();
      awaitReady(cluster, processes, readiness, timeout);
      return cluster;
    } catch (IOException | RuntimeException e) {
      stop(started);
      processes.forEach(Process::destroyForcibly);
      LocalCluster.deleteState(dir);
      if (e instanceof ClusterStartException c) {
        throw new ClusterStartException(c.getMessage(), started);
      }
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
  }

  /**
   * The JVMs' class path: {@code slf4j-simple} first (so it, not a no-operation binding earlier on
   * the path, receives the engine's logging), no {@code slf4j-nop}.
   */
  static String withLogging(String classpath) {
    List<String> logging = new ArrayList<>();
    List<String> rest = new ArrayList<>();
    for (String entry : classpath.split(File.pathSeparator)) {
      String file = Path.of(entry).getFileName() == null ? entry
          : Path.of(entry).getFileName().toString();
      if (file.startsWith("slf4j-simple-")) {
        logging.add(entry);
      } else if (!file.startsWith("slf4j-nop-")) {
        rest.add(entry);
      }
    }
    logging.addAll(rest);
    return String.join(File.pathSeparator, logging);
  }

  /**
   * Stops the given processes, the last started first, and whatever they started (a Spark
   * worker's executors): each is asked to stop, and killed if it has not within 20 s. A process
   * that is no longer the recorded JVM (not alive, or its id reused) is left alone.
   */
  static void stop(List<ClusterProcess> processes) {
    List<ProcessHandle> handles = new ArrayList<>();
    for (int i = processes.size() - 1; i >= 0; i--) {
      ClusterProcess s = processes.get(i);
      if (s.alive()) {
        ProcessHandle h = ProcessHandle.of(s.pid()).orElseThrow();
        List<ProcessHandle> children = h.descendants().toList();
        h.destroy();
        handles.add(h);
        handles.addAll(children);
      }
    }
    for (ProcessHandle h : handles) {
      try {
        h.onExit().get(20, TimeUnit.SECONDS);
      } catch (Exception e) {
        h.destroyForcibly();
      }
    }
  }

  /** A free TCP port on the loopback address. */
  static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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

  private static Process start(Jvm jvm, Path logs, String classpath) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx" + jvm.heapMb() + "m");
    cmd.add("-XX:MaxDirectMemorySize=320m");
    cmd.add("-XX:MaxMetaspaceSize=256m");
    cmd.add("-XX:+UseSerialGC");
    cmd.addAll(JAVA17_OPENS);
    cmd.add("-Dtradeoff.cluster.role=" + jvm.role());
    Path log = logs.resolve(jvm.role() + ".log");
    cmd.add("-Dlog.file=" + log);
    cmd.add("-Dorg.slf4j.simpleLogger.logFile=" + log);
    cmd.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=info");
    cmd.add("-Dorg.slf4j.simpleLogger.showDateTime=true");
    cmd.add("-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSSZ");
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add(jvm.mainClass());
    cmd.addAll(jvm.args());
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .redirectOutput(logs.resolve(jvm.role() + ".out").toFile())
        .redirectError(logs.resolve(jvm.role() + ".err").toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().putAll(jvm.env());
    return pb.start();
  }

  private static void awaitReady(LocalCluster cluster, List<Process> processes,
      Readiness readiness, Duration timeout) {
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
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(readiness.uri())
            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          int registered = readiness.registered().applyAsInt(JSON.readTree(r.body()));
          if (registered >= cluster.workers()) {
            return;
          }
          last = registered + " of " + cluster.workers() + " workers registered";
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
  private static ClusterStartException exited(LocalCluster cluster, String role, Process p) {
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
  private static final Pattern LOGGED = Pattern.compile(
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
      lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines().toList();
    } catch (IOException e) {
      return List.of();
    }
    List<String> errors = new ArrayList<>();
    List<String> telling = new ArrayList<>();
    for (String line : lines) {
      String t = line.strip();
      Matcher m = LOGGED.matcher(t);
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
}
