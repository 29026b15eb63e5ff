package dev.tradeoff.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
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
 * The packages of the accounting module form a graph without cycles (docs/modules.md): read from
 * the main sources, a package depends on another when one of its files names a class of it
 * (imports and fully qualified names in code; comments and Javadoc do not count).
 */
class PackageGraphTest {

  private static final Path SOURCES = Path.of("src/main/java");

  private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);

  /** A reference to a class of this module: lower-case segments, then a capitalised name. */
  private static final Pattern REFERENCE =
      Pattern.compile("\\b(dev\\.tradeoff\\.accounting(?:\\.[a-z]\\w*)*)\\.[A-Z]");

  @Test
  void accountingPackagesHaveNoCycle() {
    Map<String, Set<String>> graph = packageGraph();
    assertThat(graph).containsKeys("dev.tradeoff.accounting.accountant",
        "dev.tradeoff.accounting.methods", "dev.tradeoff.accounting.pld");
    assertThat(graph.get("dev.tradeoff.accounting.methods"))
        .contains("dev.tradeoff.accounting.pld");
    assertThat(cycle(graph)).isEmpty();
  }

  @Test
  void theCycleFinderFindsACycle() {
    Map<String, Set<String>> graph = new TreeMap<>();
    graph.put("a", Set.of("b"));
    graph.put("b", Set.of("c"));
    graph.put("c", Set.of("a"));
    graph.put("d", Set.of("a"));
    assertThat(cycle(graph)).containsExactly("a", "b", "c", "a");
  }

  private static Map<String, Set<String>> packageGraph() {
    Map<String, Set<String>> graph = new TreeMap<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String text = Files.readString(file);
        Matcher declared = PACKAGE.matcher(text);
        if (!declared.find()) {
          continue; // module-info.java
        }
        String from = declared.group(1);
        Set<String> targets = graph.computeIfAbsent(from, k -> new TreeSet<>());
        Matcher reference = REFERENCE.matcher(code(text));
        while (reference.find()) {
          if (!reference.group(1).equals(from)) {
            targets.add(reference.group(1));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return graph;
  }

  /** The source without comments and string literals. */
  private static String code(String source) {
    return source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ")
        .replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"");
  }

  /** One cycle of the graph as a closed path (first node repeated last), or empty if none. */
  private static List<String> cycle(Map<String, Set<String>> graph) {
    Map<String, Integer> state = new TreeMap<>(); // 1: on the current path, 2: finished
    for (String start : graph.keySet()) {
      Deque<String> path = new ArrayDeque<>();
      List<String> found = visit(start, graph, state, path);
      if (!found.isEmpty()) {
        return found;
      }
    }
    return List.of();
  }

  private static List<String> visit(String node, Map<String, Set<String>> graph,
      Map<String, Integer> state, Deque<String> path) {
    Integer seen = state.get(node);
    if (seen != null && seen == 2) {
      return List.of();
    }
    if (seen != null) {
      List<String> onPath = new ArrayList<>(path);
      List<String> loop = new ArrayList<>(onPath.subList(onPath.indexOf(node), onPath.size()));
      loop.add(node);
      return loop;
    }
    state.put(node, 1);
    path.addLast(node);
    for (String next : graph.getOrDefault(node, Set.of())) {
      List<String> found = visit(next, graph, state, path);
      if (!found.isEmpty()) {
        return found;
      }
    }
    path.removeLast();
    state.put(node, 2);
    return List.of();
  }
}
