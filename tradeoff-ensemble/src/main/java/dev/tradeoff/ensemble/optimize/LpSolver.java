package dev.tradeoff.ensemble.optimize;

import dev.tradeoff.ensemble.optimize.ortools.OrToolsLpSolver;

/**
 * A linear-programming solver for {@link GammaOptimizer}'s cutting-plane loop [DaRRM24, Section
 * 5]: it opens empty minimisation programs to which the loop adds variables and rows, and which it
 * re-solves after each round of cuts.
 *
 * <p>The default, {@link #orTools()}, is OR-Tools' GLOP (CLP as a last resort). OR-Tools is an
 * optional dependency of {@code tradeoff-ensemble} (its native libraries take 86 MB for five
 * platforms): a project that runs the LP adds {@code com.google.ortools:ortools-java}, with the
 * platform jars it needs (docs/ensemble.md), or passes its own solver to {@link
 * GammaOptimizer#GammaOptimizer(dev.tradeoff.ensemble.privacy.DarrmSetting, LpSolver)}. Nothing
 * else in the module needs an LP solver.
 */
public interface LpSolver {

  /** A new empty program (no variables, no rows), to be minimised. */
  LinearProgram newProgram();

  /**
   * OR-Tools' GLOP.
   *
   * @throws IllegalStateException when OR-Tools is not on the class or module path, naming the
   *     dependency to add
   */
  static LpSolver orTools() {
    return OrToolsLpSolver.create();
  }
}
