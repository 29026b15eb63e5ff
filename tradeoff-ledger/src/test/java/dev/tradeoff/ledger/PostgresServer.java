package dev.tradeoff.ledger;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server for the tests: Debian's binaries, a temporary data directory, loopback
 * only, trust authentication (the roles are what the tests check, not passwords). PostgreSQL
 * refuses to run as root, so when the tests run as root the server runs as the {@code postgres}
 * system user (which Debian's package creates) through {@code runuser}. {@link #close} stops
 * exactly this server (by its data directory) and deletes the directory.
 *
 * <p>Roles: {@value #SUPERUSER} (made by initdb, used only to set up), {@value #OWNER} (owns the
 * database {@value #DATABASE}, creates the ledger's tables and datasets) and two analysts. The
 * tradeoff-cli tests use it through this module's test jar ({@link #databaseOwnedBy}).
 */
public final class PostgresServer implements AutoCloseable {

  /** Debian's newest installed server ({@code /usr/lib/postgresql/N/bin}), or the property. */
  public static final Path BIN = binaries();
  public static final String SUPERUSER = "tradeoff_admin";
  public static final String OWNER = "team_owner";
  public static final String ANALYST = "analyst_a";
  public static final String OTHER_ANALYST = "analyst_b";
  public static final String DATABASE = "ledger";

  private final Path base;
  private final Path data;
  private final int port;
  private final Thread stopOnExit;

  private static Path binaries() {
    String given = System.getProperty("tradeoff.postgres.bin");
    if (given != null) {
      return Path.of(given);
    }
    Path root = Path.of("/usr/lib/postgresql");
    try (Stream<Path> versions = Files.list(root)) {
      return versions.filter(v -> v.getFileName().toString().matches("[0-9]+"))
          .max(Comparator.comparingInt(v -> Integer.parseInt(v.getFileName().toString())))
          .map(v -> v.resolve("bin")).orElse(root.resolve("15/bin"));
    } catch (IOException e) {
      return root.resolve("15/bin");
    }
  }

  /** Whether Debian's PostgreSQL server binaries are installed. */
  public static boolean available() {
    return Files.isExecutable(BIN.resolve("postgres")) && Files.isExecutable(BIN.resolve("initdb"))
        && Files.isExecutable(BIN.resolve("pg_ctl"));
  }

  private PostgresServer(Path base, int port) {
    this.base = base;
    this.data = base.resolve("data");
    this.port = port;
    this.stopOnExit = new Thread(() -> stop("immediate"));
  }

  /** Initialises a cluster in a new temporary directory and starts it; creates the roles. */
  public static PostgresServer start() throws IOException, InterruptedException, SQLException {
    Path base = Files.createTempDirectory("tradeoff-postgres");
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path data = Files.createDirectory(base.resolve("data"));
    Path socket = Files.createDirectory(base.resolve("socket"));
    if (asRoot()) {
      UserPrincipal postgres = base.getFileSystem().getUserPrincipalLookupService()
          .lookupPrincipalByName("postgres");
      Files.setOwner(data, postgres);
      Files.setOwner(socket, postgres);
      Files.setOwner(base, postgres);
    }
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    PostgresServer server = new PostgresServer(base, port);
    server.run(BIN.resolve("initdb").toString(), "-D", data.toString(), "--auth=trust",
        "--username=" + SUPERUSER, "--encoding=UTF8", "--no-sync", "--no-instructions");
    Files.writeString(data.resolve("postgresql.conf"), String.join("\n",
        "listen_addresses = '127.0.0.1'", "port = " + port,
        "unix_socket_directories = '" + socket + "'", "max_connections = 200",
        "shared_buffers = 32MB", ""), java.nio.file.StandardOpenOption.APPEND);
    Runtime.getRuntime().addShutdownHook(server.stopOnExit);
    server.startServer();
    try (Connection c = server.connect(SUPERUSER, "postgres"); Statement s = c.createStatement()) {
      s.execute("CREATE ROLE " + OWNER + " LOGIN");
      s.execute("CREATE ROLE " + ANALYST + " LOGIN");
      s.execute("CREATE ROLE " + OTHER_ANALYST + " LOGIN");
      s.execute("CREATE DATABASE " + DATABASE + " OWNER " + OWNER);
    }
    return server;
  }

  /** Starts the server (again, after {@link #crash}) and waits until it accepts connections. */
  void startServer() throws IOException, InterruptedException {
    run(BIN.resolve("pg_ctl").toString(), "-D", data.toString(), "-l",
        base.resolve("server.log").toString(), "-w", "-t", "60", "start");
  }

  /** Stops the server as a crash would: {@code pg_ctl -m immediate} (no checkpoint). */
  void crash() {
    stop("immediate");
  }

  public PostgresLocation location() {
    return new PostgresLocation("127.0.0.1", port, DATABASE);
  }

  /** The environment a client of role {@code role} runs with. */
  static Map<String, String> as(String role) {
    return Map.of("PGUSER", role);
  }

  public Connection connect(String role, String database) throws SQLException {
    Properties p = new Properties();
    p.setProperty("user", role);
    return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database, p);
  }

  public Connection connect(String role) throws SQLException {
    return connect(role, DATABASE);
  }

  /**
   * A new database {@code database} owned by login role {@code role} (created if absent): for a
   * client that connects as the operating-system user, as one without {@code PGUSER} does.
   */
  public PostgresLocation databaseOwnedBy(String role, String database) throws SQLException {
    try (Connection c = connect(SUPERUSER, "postgres"); Statement s = c.createStatement()) {
      String quoted = "\"" + role.replace("\"", "\"\"") + "\"";
      try (var r = s.executeQuery("SELECT 1 FROM pg_roles WHERE rolname = '"
          + role.replace("'", "''") + "'")) {
        if (!r.next()) {
          s.execute("CREATE ROLE " + quoted + " LOGIN");
        }
      }
      s.execute("CREATE DATABASE \"" + database + "\" OWNER " + quoted);
    }
    return new PostgresLocation("127.0.0.1", port, database);
  }

  @Override
  public void close() throws IOException {
    stop("fast");
    Runtime.getRuntime().removeShutdownHook(stopOnExit);
    try (Stream<Path> all = Files.walk(base)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private void stop(String mode) {
    if (!Files.exists(data.resolve("postmaster.pid"))) {
      return;
    }
    try {
      run(BIN.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", mode, "-w", "-t", "60",
          "stop");
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException("could not stop the test PostgreSQL server in " + data, e);
    }
  }

  private void run(String... command) throws IOException, InterruptedException {
    List<String> full = new ArrayList<>();
    if (asRoot()) {
      full.addAll(List.of("runuser", "-u", "postgres", "--"));
    }
    full.addAll(List.of(command));
    Process p = new ProcessBuilder(full).directory(base.toFile()).redirectErrorStream(true)
        .redirectOutput(base.resolve("commands.log").toFile().exists()
            ? ProcessBuilder.Redirect.appendTo(base.resolve("commands.log").toFile())
            : ProcessBuilder.Redirect.to(base.resolve("commands.log").toFile()))
        .start();
    if (!p.waitFor(2, TimeUnit.MINUTES) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IOException(String.join(" ", command) + " failed: "
          + Files.readString(base.resolve("commands.log")));
    }
  }

  private static boolean asRoot() {
    return "root".equals(System.getProperty("user.name"));
  }
}
