package dev.tradeoff.ledger;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts {@link LedgerWorkerMain} in a fresh JVM on the test class path. */
final class LedgerProcesses {

  private LedgerProcesses() {}

  static Process start(String... args) throws IOException {
    return start(java.util.Map.of(), args);
  }

  /** Starts a worker with {@code environment} added to this process's environment. */
  static Process start(java.util.Map<String, String> environment, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(LedgerWorkerMain.class.getName());
    command.addAll(List.of(args));
    ProcessBuilder b = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    b.environment().putAll(environment);
    return b.start();
  }
}
