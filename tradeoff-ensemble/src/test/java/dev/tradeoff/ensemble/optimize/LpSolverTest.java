package dev.tradeoff.ensemble.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.ensemble.privacy.DarrmSetting;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The optimiser reaches its LP only through {@link LpSolver}: a given solver is the one used. */
class LpSolverTest {

  /** OR-Tools behind a counter of programs opened and solves run. */
  private static final class Counting implements LpSolver {
    private final LpSolver inner = LpSolver.orTools();
    int programs;
    int solves;

    @Override
    public LinearProgram newProgram() {
      programs++;
      LinearProgram lp = inner.newProgram();
      return new LinearProgram() {
        @Override
        public int addVariable(double lower, double upper, double objective) {
          return lp.addVariable(lower, upper, objective);
        }

        @Override
        public int addRow(double lower, double upper, int[] variables, double[] coefficients) {
          return lp.addRow(lower, upper, variables, coefficients);
        }

        @Override
        public Optional<double[]> solve() {
          solves++;
          return lp.solve();
        }

        @Override
        public double dual(int row) {
          return lp.dual(row);
        }

        @Override
        public void close() {
          lp.close();
        }
      };
    }
  }

  @Test
  void aGivenSolverRunsEveryRoundAndGivesTheDefaultsOptimum() {
    DarrmSetting s = DarrmSetting.withDefaultDelta(11, 0.1, 1e-5, 3);
    Counting counting = new Counting();
    GammaOptimizer.Result given = new GammaOptimizer(s, counting)
        .optimize(new Objective.Surrogate(0.75));
    GammaOptimizer.Result byDefault = new GammaOptimizer(s).optimize(new Objective.Surrogate(0.75));
    assertThat(counting.programs).isGreaterThanOrEqualTo(1);
    assertThat(counting.solves).isEqualTo(given.rounds());
    for (int l = 0; l <= 11; l++) {
      assertThat(given.gamma().at(l)).as("gamma(%d)", l)
          .isCloseTo(byDefault.gamma().at(l), within(1e-12));
    }
  }

  @Test
  void aSolverThatReachesNoOptimumIsAnErrorNotAGuess() {
    LpSolver failing = () -> new LinearProgram() {
      private int variables;
      private int rows;

      @Override
      public int addVariable(double lower, double upper, double objective) {
        return variables++;
      }

      @Override
      public int addRow(double lower, double upper, int[] vars, double[] coefficients) {
        return rows++;
      }

      @Override
      public Optional<double[]> solve() {
        return Optional.empty();
      }

      @Override
      public double dual(int row) {
        throw new IllegalStateException("no optimum");
      }

      @Override
      public void close() {}
    };
    DarrmSetting s = DarrmSetting.withDefaultDelta(11, 0.1, 1e-5, 3);
    assertThatThrownBy(() -> new GammaOptimizer(s, failing).optimize(new Objective.Surrogate(0.75)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the LP solver did not reach an optimum");
    assertThatThrownBy(() -> new GammaOptimizer(s, null))
        .hasMessageContaining("solver");
  }
}
