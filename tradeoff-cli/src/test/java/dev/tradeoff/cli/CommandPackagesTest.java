package dev.tradeoff.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The command line is organised by command: each {@code dev.tradeoff.cli.<command>} package
 * parses and prints one command and depends only on the shared {@code io} (JSON, CSV, progress,
 * errors, limits) and {@code options} (flags several commands take) packages, never on another
 * command's package or on the root that assembles them. Read from the main sources: a package
 * depends on another when its code names a class of it (imports and qualified names; comments,
 * Javadoc and strings do not count).
 */
class CommandPackagesTest {

  private static final String ROOT = "dev.tradeoff.cli";
  private static final Set<String> SHARED = Set.of(ROOT + ".io", ROOT + ".options");

  private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
  private static final Pattern REFERENCE =
      Pattern.compile("\\b(dev\\.tradeoff\\.cli(?:\\.[a-z]\\w*)*)\\.[A-Z]");

  @Test
  void noCommandPackageDependsOnAnotherCommandOrTheRoot() throws IOException {
    Map<String, Set<String>> graph = graph(Path.of("src/main/java"));
    assertThat(graph).containsKeys(ROOT, ROOT + ".io", ROOT + ".options", ROOT + ".label",
        ROOT + ".account", ROOT + ".ledger", ROOT + ".tune", ROOT + ".aggregate");
    assertThat(graph.get(ROOT)).contains(ROOT + ".label", ROOT + ".io");
    assertThat(violations(graph)).isEmpty();
  }

  @Test
  void aCommandNamingAnotherCommandIsAViolation() {
    Map<String, Set<String>> graph = new TreeMap<>();
    graph.put(ROOT, Set.of(ROOT + ".tune", ROOT + ".ledger"));
    graph.put(ROOT + ".tune", Set.of(ROOT + ".io", ROOT + ".ledger"));
    graph.put(ROOT + ".ledger", Set.of(ROOT + ".options"));
    graph.put(ROOT + ".options", Set.of(ROOT + ".io"));
    graph.put(ROOT + ".io", Set.of(ROOT));
    assertThat(violations(graph))
        .containsExactly(ROOT + ".io -> " + ROOT, ROOT + ".tune -> " + ROOT + ".ledger");
  }

  /** Each edge that leaves a command or shared package for anything but a shared package. */
  private static List<String> violations(Map<String, Set<String>> graph) {
    return graph.entrySet().stream()
        .filter(e -> !e.getKey().equals(ROOT))
        .flatMap(e -> e.getValue().stream()
            .filter(target -> !SHARED.contains(target))
            .map(target -> e.getKey() + " -> " + target))
        .sorted()
        .toList();
  }

  private static Map<String, Set<String>> graph(Path sources) throws IOException {
    Map<String, Set<String>> graph = new TreeMap<>();
    try (Stream<Path> files = Files.walk(sources)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String text = Files.readString(file);
        Matcher declared = PACKAGE.matcher(text);
        if (!declared.find()) {
          continue;
        }
        String from = declared.group(1);
        Set<String> targets = graph.computeIfAbsent(from, k -> new TreeSet<>());
        String code = text.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ")
            .replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"");
        Matcher reference = REFERENCE.matcher(code);
        while (reference.find()) {
          if (!reference.group(1).equals(from)) {
            targets.add(reference.group(1));
          }
        }
      }
    }
    return graph;
  }
}
