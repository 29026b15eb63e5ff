package dev.tradeoff.cli;

import dev.tradeoff.cli.io.BuildVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import picocli.CommandLine;
import picocli.CommandLine.Help.Ansi;

/**
 * What {@code tradeoff}, {@code tradeoff --help} and {@code tradeoff --version} print, answered
 * without building a command line. Building picocli's model of the root command (reading its
 * annotations, each annotation type a proxy class made at run time, and registering picocli's
 * converters) was most of these commands' start-up. The usage is rendered by picocli when the jar
 * is built ({@link #main}, run by the build after compiling) into two resources, plain and
 * ANSI-styled, and {@link Launcher} prints the one picocli's own {@link Ansi#AUTO} rule picks; the
 * version is {@link BuildVersion}'s line. {@code HelpTextTest} checks that every answer is,
 * character for character, what picocli prints for the same arguments.
 */
public final class HelpText {

  /** The usage without styling, and with picocli's ANSI styles (a terminal). */
  static final String PLAIN = "usage.txt";
  static final String STYLED = "usage-ansi.txt";

  private HelpText() {}

  /**
   * The output for {@code args} when they ask only for the usage or the version: at most one of
   * {@code -q}/{@code --quiet} and at most one of {@code -h}/{@code --help}/{@code -V}/{@code
   * --version}, nothing else, and no {@code picocli.*} system property set (those change what
   * picocli prints). Empty otherwise, and when the build wrote no usage: picocli answers. {@code
   * styled} is asked only for the usage (the version line is the same either way).
   */
  static Optional<byte[]> answer(String[] args, BooleanSupplier styled) {
    int quiet = 0;
    String asked = null;
    for (String a : args) {
      switch (a) {
        case "-q", "--quiet" -> quiet++;
        case "-h", "--help", "-V", "--version" -> {
          if (asked != null) {
            return Optional.empty();
          }
          asked = a;
        }
        default -> {
          return Optional.empty();
        }
      }
    }
    if (quiet > 1) {
      return Optional.empty();
    }
    for (String property : System.getProperties().stringPropertyNames()) {
      if (property.startsWith("picocli.")) {
        return Optional.empty();
      }
    }
    if ("-V".equals(asked) || "--version".equals(asked)) {
      return Optional.of(versionLine().getBytes(StandardCharsets.UTF_8));
    }
    String usage = styled.getAsBoolean() ? STYLED : PLAIN;
    try (InputStream in = HelpText.class.getResourceAsStream(usage)) {
      return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether picocli would style the output here ({@link Ansi#AUTO}: a terminal, no NO_COLOR). */
  static boolean styled() {
    return Ansi.AUTO.enabled();
  }

  /** The version as picocli prints {@link BuildVersion}'s one line. */
  private static String versionLine() {
    return String.join(System.lineSeparator(), new BuildVersion().getVersion())
        + System.lineSeparator();
  }

  /** The usage picocli prints for {@code tradeoff --help} with {@code ansi}. */
  static String usage(Ansi ansi) {
    StringWriter out = new StringWriter();
    CommandLine cli = TradeoffCommand.commandLine("--help");
    cli.usage(new PrintWriter(out, true), CommandLine.Help.defaultColorScheme(ansi));
    return out.toString();
  }

  /** Writes both usages under the class-output directory {@code args[0]} (run by the build). */
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]).resolve(HelpText.class.getPackageName().replace('.', '/'));
    Files.createDirectories(dir);
    for (Ansi ansi : List.of(Ansi.OFF, Ansi.ON)) {
      Files.writeString(dir.resolve(ansi == Ansi.ON ? STYLED : PLAIN), usage(ansi),
          StandardCharsets.UTF_8);
    }
  }
}
