package dev.tradeoff.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Use as a library" program is the file of the standalone project
 * examples/quickstart, character for character; it is compiled here as a user would compile it
 * (javac, the library jars' classes on the class path, nothing of this test) and its main run.
 */
class ReadmeExampleTest {

  private static final Path README = Path.of("..", "README.md");
  private static final Path QUICKSTART =
      Path.of("..", "examples", "quickstart", "src", "main", "java", "com", "example", "tradeoff",
          "QuickStart.java");
  private static final Pattern BLOCK =
      Pattern.compile("<!-- example: QuickStart -->\\s*```java\\n(.*?)```", Pattern.DOTALL);

  @TempDir Path tmp;

  @Test
  void readmeProgramIsTheStandaloneExample() throws IOException {
    assertThat(readmeProgram()).isEqualTo(Files.readString(QUICKSTART));
  }

  @Test
  void readmeProgramCompilesAndRuns() throws Exception {
    Path source = tmp.resolve("src/com/example/tradeoff/QuickStart.java");
    Files.createDirectories(source.getParent());
    Files.writeString(source, readmeProgram());
    Path classes = Files.createDirectories(tmp.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int status = javac.run(null, diagnostics, diagnostics, "-Xlint:all,-path", "-Werror",
        "-classpath", classPath(), "-d", classes.toString(), source.toString());
    assertThat(status).as(diagnostics.toString(StandardCharsets.UTF_8)).isZero();

    String printed;
    PrintStream stdout = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
        ReadmeExampleTest.class.getClassLoader())) {
      Method main = loader.loadClass("com.example.tradeoff.QuickStart")
          .getMethod("main", String[].class);
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      main.invoke(null, (Object) new String[0]);
    } finally {
      System.setOut(stdout);
    }
    printed = captured.toString(StandardCharsets.UTF_8);
    List<String> lines = printed.lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).startsWith("noisy count ").endsWith(" under PureDp[epsilon=1.0]");
    // The PLD upper bound for 100 Gaussians with sigma = 1 (exact 91.817, REPRODUCTION.md).
    assertThat(lines.get(1)).isEqualTo("100 Gaussian releases: epsilon 91.82 at delta 1e-5");
  }

  private static String readmeProgram() throws IOException {
    Matcher m = BLOCK.matcher(Files.readString(README));
    assertThat(m.find()).as("README has a <!-- example: QuickStart --> java block").isTrue();
    return m.group(1);
  }

  /** The test's class path as surefire gives it (its manifest-only jar hides it from java.class.path). */
  private static String classPath() {
    return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
  }
}
