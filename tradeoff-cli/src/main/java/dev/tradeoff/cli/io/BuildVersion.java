package dev.tradeoff.cli.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code tradeoff --version}: the version the build wrote into {@code version.properties} (Maven
 * resource filtering of {@code ${project.version}}), so the command and the artifacts it was built
 * from never disagree.
 */
public final class BuildVersion implements IVersionProvider {

  /** The build's version, for example {@code 0.1.0}. */
  public static String version() {
    try (InputStream in = BuildVersion.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        throw new IllegalStateException("version.properties is missing from the class path");
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public String[] getVersion() {
    return new String[] {"tradeoff " + version()};
  }
}
