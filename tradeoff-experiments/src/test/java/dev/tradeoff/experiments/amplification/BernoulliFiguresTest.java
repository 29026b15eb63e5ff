package dev.tradeoff.experiments.amplification;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class BernoulliFiguresTest {

  @Test
  void postIsSearchedAtEveryEpsilonForDimensionOneAndSmallDk() {
    for (double e : BernoulliFigures.epsilonGrid(30)) {
      assertThat(BernoulliFigures.searched(1, 4, e)).isTrue();
      assertThat(BernoulliFigures.searched(3, 1, e)).isTrue();
    }
  }

  @Test
  void figuresOneBAndTwoBSearchPostOnACoarseSubsetOfTheGrid() {
    double[] grid = BernoulliFigures.epsilonGrid(30);
    for (int d : new int[] {5, 15}) {
      long searched = Arrays.stream(grid).filter(e -> BernoulliFigures.searched(d, 1, e)).count();
      assertThat(searched).isEqualTo(10);
    }
    assertThat(BernoulliFigures.searched(5, 1, 0.3)).isTrue();
    assertThat(BernoulliFigures.searched(5, 1, 0.4)).isFalse();
  }

  @Test
  void figureThreeSearchesLargeDkWithSeveralSamplesOnTheCoarseGrid() {
    double[] grid = BernoulliFigures.epsilonGrid(30);
    for (int[] dk : new int[][] {{3, 2}, {3, 4}, {5, 2}, {5, 4}}) {
      long searched =
          Arrays.stream(grid).filter(e -> BernoulliFigures.searched(dk[0], dk[1], e)).count();
      assertThat(searched).isEqualTo(10);
    }
  }
}
