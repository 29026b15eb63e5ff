package dev.tradeoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** One version everywhere, and a BOM that lists every library module and no application. */
class BuildMetadataTest {

  private static final Path ROOT = Path.of("..");

  /** Reactor modules that are not libraries: the BOM itself and the applications. */
  private static final Set<String> NOT_LIBRARIES =
      Set.of("tradeoff-bom", "tradeoff-cli", "tradeoff-bench", "tradeoff-experiments",
          "tradeoff-module-test");

  @Test
  void versionFlagPrintsThePomVersion() throws IOException {
    String version = projectVersion(Files.readString(ROOT.resolve("pom.xml")));
    CliRun run = CliRun.of("--version");
    assertThat(run.status()).isZero();
    assertThat(run.out().strip()).isEqualTo("tradeoff " + version);
    assertThat(version).doesNotContain("${");
  }

  @Test
  void bomHasTheParentVersionAndExactlyTheLibraryModules() throws IOException {
    String parent = Files.readString(ROOT.resolve("pom.xml"));
    String bom = Files.readString(ROOT.resolve("tradeoff-bom").resolve("pom.xml"));
    assertThat(projectVersion(bom)).isEqualTo(projectVersion(parent));
    List<String> libraries = new ArrayList<>(all(parent, "<module>([^<]+)</module>"));
    libraries.removeAll(NOT_LIBRARIES);
    assertThat(all(bom, "<artifactId>(tradeoff-[^<]+)</artifactId>"))
        .filteredOn(a -> !a.equals("tradeoff-bom"))
        .containsExactlyInAnyOrderElementsOf(libraries);
  }

  @Test
  void everyModuleInheritsTheOneVersion() throws IOException {
    String version = projectVersion(Files.readString(ROOT.resolve("pom.xml")));
    for (String module : all(Files.readString(ROOT.resolve("pom.xml")), "<module>([^<]+)</module>")) {
      String pom = Files.readString(ROOT.resolve(module).resolve("pom.xml"));
      assertThat(all(pom, "<version>([^<]+)</version>").get(0)).as(module).isEqualTo(version);
    }
  }

  /** The project's own version: the first {@code <version>} of the pom. */
  private static String projectVersion(String pom) {
    return all(pom, "<version>([^<]+)</version>").get(0);
  }

  private static List<String> all(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    List<String> found = new ArrayList<>();
    while (m.find()) {
      found.add(m.group(1).strip());
    }
    return found;
  }
}
