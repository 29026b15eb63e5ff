package dev.tradeoff.experiments.amplification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reproduction's files do not depend on the number of threads; its counts agree. */
class BernoulliReproductionTest {

  /** Figure 2a/2b at c = 0.3 (d = 1, 2, 3, 5, 15) on three ε, one of them not searched for d ≥ 5. */
  private static final double[] GRID = {0.3, 0.4, 1.0};

  private static List<BernoulliReproduction.Chart> subset(Path out) {
    return BernoulliReproduction.charts(out).stream()
        .filter(c -> c.alpha() == 5 && c.c() == 0.3)
        .toList();
  }

  @Test
  void theCsvIsTheSameByteForByteOnOneAndOnThreeThreads(@TempDir Path dir) throws Exception {
    Path one = dir.resolve("one");
    Path three = dir.resolve("three");
    List<BernoulliReproduction.State> states = new CopyOnWriteArrayList<>();
    BernoulliReproduction.Written a =
        BernoulliReproduction.write(one, subset(one), GRID, 1, s -> {});
    BernoulliReproduction.Written b =
        BernoulliReproduction.write(three, subset(three), GRID, 3, states::add);
    assertThat(Files.readAllBytes(b.csv())).isEqualTo(Files.readAllBytes(a.csv()));
    assertThat(b.rows()).hasSize(15);
    // distinct (alpha, c, dk, epsilon): dk in {1, 2, 3, 5, 15}, three epsilon each
    assertThat(b.points()).isEqualTo(15);
    assertThat(b.searchedPoints()).isEqualTo(13);
    assertThat(b.certifiedPoints()).isEqualTo(13);
    assertThat(b.searched()).isEqualTo(13);
    BernoulliReproduction.State last = states.get(states.size() - 1);
    assertThat(last.counts()).isEqualTo("points done 15/15, searched 13, certified 13 of 13");
    assertThat(last.running()).isEmpty();
    assertThat(states).allSatisfy(s -> assertThat(s.certified()).isLessThanOrEqualTo(s.searched()));
  }

  @Test
  void aThreadCountBelowOneIsRefused(@TempDir Path dir) {
    assertThatThrownBy(() -> BernoulliReproduction.write(dir, subset(dir), GRID, 0, s -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("threads");
  }
}
