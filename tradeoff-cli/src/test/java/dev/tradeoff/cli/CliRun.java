package dev.tradeoff.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * Runs the {@code tradeoff} command in-process, built as {@code main} builds it (only the command
 * the arguments name), and captures what it prints. Runs are {@code
 * --quiet} unless the arguments name it, so progress on a slow machine never mixes with the
 * error line a test checks (the progress tests in {@code dev.tradeoff.cli.io} test progress).
 */
public record CliRun(int status, String out, String err) {

  public static CliRun of(String... given) {
    List<String> all = new ArrayList<>(List.of(given));
    if (!all.contains("--quiet") && !all.contains("-q")) {
      all.add(0, "--quiet");
    }
    String[] args = all.toArray(String[]::new);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = TradeoffCommand.commandLine(args);
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int status = cli.execute(args);
    return new CliRun(status, out.toString(), err.toString());
  }

  public JsonNode json() {
    try {
      return new ObjectMapper().readTree(out);
    } catch (Exception e) {
      throw new AssertionError("not JSON: " + out, e);
    }
  }
}
