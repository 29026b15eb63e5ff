package dev.tradeoff.moduletest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A program that requires every library module but tradeoff-beam (src/test/program; Beam 2.62
 * splits packages between its jars, see this module's pom) compiles with {@code javac
 * --module-path} and runs with {@code java --module-path} against the library's jars and what a
 * user's build resolves for them (target/library.path, written by the dependency plugin): once
 * without OR-Tools, where the LP names the missing dependency, and once with OR-Tools on the class
 * path, where the LP runs.
 */
class ModulePathTest {

  private static final Path PROGRAM = Path.of("src/test/program");

  @TempDir
  static Path work;

  private static String libraryPath;
  private static Path compiled;

  @BeforeAll
  static void compileTheProgram() throws IOException {
    libraryPath = Files.readString(Path.of("target/library.path")).strip();
    compiled = work.resolve("example.modules");
    List<String> args = new ArrayList<>(List.of("-d", compiled.toString(), "--module-path",
        libraryPath));
    try (Stream<Path> files = Files.walk(PROGRAM)) {
      files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
    }
    int status = ToolProvider.findFirst("javac").orElseThrow()
        .run(System.out, System.err, args.toArray(String[]::new));
    assertThat(status).as("javac's exit status").isZero();
  }

  @Test
  void everyLibraryModuleButBeamIsNamedAndWorksOnTheModulePathWithoutOrTools() throws Exception {
    List<String> out = run(List.of(), work.resolve("without.db"));
    assertThat(out).contains(
        "module dev.tradeoff.accounting named", "module dev.tradeoff.ledger named",
        "module dev.tradeoff.mechanisms named", "module dev.tradeoff.audit named",
        "module dev.tradeoff.amplification named", "module dev.tradeoff.shuffle named",
        "module dev.tradeoff.ensemble named", "module dev.tradeoff.selection named",
        "module dev.tradeoff.learning named",
        // the QuickStart's figure (README): 100 Gaussian releases, sigma 1, at delta 1e-5
        "gaussian epsilon 91.82",
        "in-memory remaining PureDp[epsilon=0.75]",
        "darrm subsampling private true");
    assertThat(out).anyMatch(l -> l.startsWith("ledger remaining ApproxDp[epsilon=0.5"));
    assertThat(out).contains("lp the DaRRM LP needs OR-Tools, which is not on the class or module"
        + " path: add com.google.ortools:ortools-java and its platform jar (an optional dependency"
        + " of tradeoff-ensemble; docs/ensemble.md), or pass an LpSolver to GammaOptimizer");
  }

  @Test
  void theLpRunsWithOrToolsOnTheClassPath() throws Exception {
    String orTools = Files.readString(Path.of("target/ortools.path")).strip();
    List<String> out = run(List.of("--class-path", orTools), work.resolve("with.db"));
    // [DaRRM24]'s optimised γ for K = 11, m = 3 (GammaOptimizerTest: 0.939241 at l = 6)
    assertThat(out).contains("lp gamma(6) 0.939241 private true");
  }

  private static List<String> run(List<String> extra, Path ledger) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--module-path", compiled + java.io.File.pathSeparator + libraryPath));
    command.addAll(extra);
    command.addAll(List.of("--module", "example.modules/example.modules.Main", ledger.toString()));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] bytes = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    String text = new String(bytes, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as("exit status; output:%n%s", text).isZero();
    return text.lines().toList();
  }
}
