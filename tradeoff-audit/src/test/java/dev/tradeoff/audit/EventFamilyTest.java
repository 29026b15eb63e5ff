package dev.tradeoff.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EventFamilyTest {

  /** Integer-valued doubles so that ties at the thresholds are frequent. */
  private static List<Double> sample(SplittableRandom random, int size, int shift) {
    List<Double> values = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      values.add((double) (random.nextInt(20) + shift));
    }
    return values;
  }

  @Test
  void familyCountsMatchCountingEachEventDirectly() {
    SplittableRandom random = new SplittableRandom(8);
    for (int trial = 0; trial < 20; trial++) {
      List<Double> first = sample(random, 1 + random.nextInt(3000), 0);
      List<Double> second = sample(random, 1 + random.nextInt(3000), random.nextInt(5));
      for (CandidateEvent<Double> c :
          EventFamily.union(
                  EventFamily.forRealOutputs(),
                  EventFamily.<Double>categories(8),
                  EventFamily.of(List.of(new OutputEvent<Double>("odd", x -> x % 2 == 1))))
              .candidates(first, second)) {
        assertThat(c.countFirst()).as(c.event().description()).isEqualTo(c.event().count(first));
        assertThat(c.countSecond()).as(c.event().description())
            .isEqualTo(c.event().count(second));
      }
    }
  }

  @Test
  void histogramBinsPartitionEachSample() {
    SplittableRandom random = new SplittableRandom(3);
    List<Double> first = new ArrayList<>();
    List<Double> second = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      first.add(random.nextGaussian());
      second.add(random.nextGaussian() + 1);
    }
    List<CandidateEvent<Double>> bins =
        EventFamily.histogram("output", (Double x) -> x, 10).candidates(first, second);

    assertThat(bins).hasSize(10);
    assertThat(bins.stream().mapToLong(CandidateEvent::countFirst).sum()).isEqualTo(5000);
    assertThat(bins.stream().mapToLong(CandidateEvent::countSecond).sum()).isEqualTo(5000);
  }

  @Test
  void thresholdsReachIntoBothTails() {
    SplittableRandom random = new SplittableRandom(4);
    List<Double> first = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      first.add(random.nextGaussian());
    }
    List<CandidateEvent<Double>> thresholds =
        EventFamily.thresholds("output", (Double x) -> x, 8).candidates(first, first);

    // with 10^5 pooled points the grid goes down to the 10^-4 quantile: about 5 points per side
    assertThat(thresholds.stream().mapToLong(CandidateEvent::countFirst).min().orElseThrow())
        .isBetween(1L, 20L);
    assertThat(thresholds).allSatisfy(c -> assertThat(c.countFirst()).isPositive());
  }

  @Test
  void categoriesProposeTheMostFrequentValuesFirst() {
    List<String> first = List.of("a", "b", "b", "c", "c", "c");
    List<String> second = List.of("c", "d");

    List<CandidateEvent<String>> top = EventFamily.<String>categories(2).candidates(first, second);

    assertThat(top).extracting(c -> c.event().description()).containsExactly("output = c",
        "output = b");
    assertThat(top.get(0).countFirst()).isEqualTo(3);
    assertThat(top.get(0).countSecond()).isEqualTo(1);
  }

  @Test
  void nanFeatureIsRejected() {
    EventFamily<Double> thresholds = EventFamily.thresholds("output", (Double x) -> x, 4);

    assertThatThrownBy(() -> thresholds.candidates(List.of(1.0, Double.NaN), List.of(2.0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not be NaN");
  }

  @Test
  void rejectsInvalidParameters() {
    assertThatThrownBy(() -> EventFamily.thresholds("x", (Double v) -> v, 0))
        .hasMessage("gridSize must be >= 1, but was 0");
    assertThatThrownBy(() -> EventFamily.histogram("x", (Double v) -> v, 1))
        .hasMessage("bins must be >= 2, but was 1");
    assertThatThrownBy(() -> EventFamily.categories(0))
        .hasMessage("maxCategories must be >= 1, but was 0");
    assertThatThrownBy(() -> EventFamily.of(List.of()))
        .hasMessage("events must not be empty, but was []");
  }
}
