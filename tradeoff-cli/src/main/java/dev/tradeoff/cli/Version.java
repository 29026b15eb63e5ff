package dev.tradeoff.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** Tradeoff's version, from the build ({@code version.properties}, filtered by Maven). */
final class Version implements IVersionProvider {

  /** The project version, e.g. {@code 0.1.0-SNAPSHOT}. */
  static String number() {
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      Properties p = new Properties();
      if (in != null) {
        p.load(in);
      }
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String[] getVersion() {
    return new String[] {"tradeoff " + number()};
  }
}
