package dev.tradeoff.ensemble.optimize.ortools;

import dev.tradeoff.ensemble.optimize.LinearProgram;
import dev.tradeoff.ensemble.optimize.LpSolver;

/**
 * OR-Tools' GLOP behind {@link LpSolver}. This class names no OR-Tools type, so it loads without
 * OR-Tools; {@link #create} checks that OR-Tools is there before anything touches it and lets this
 * module read it, and the native library is loaded when the first program opens.
 */
public final class OrToolsLpSolver implements LpSolver {

  /** The Maven coordinates a user adds; the version is the one tradeoff-parent's pom names. */
  static final String DEPENDENCY = "com.google.ortools:ortools-java";

  private OrToolsLpSolver() {}

  /**
   * The solver, when OR-Tools' classes are visible to this module.
   *
   * @throws IllegalStateException naming the dependency to add when they are not
   */
  public static LpSolver create() {
    Class<?> solver;
    try {
      solver = Class.forName("com.google.ortools.linearsolver.MPSolver", false,
          OrToolsLpSolver.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IllegalStateException("the DaRRM LP needs OR-Tools, which is not on the class or"
          + " module path: add " + DEPENDENCY + " and its platform jar (an optional dependency of"
          + " tradeoff-ensemble; docs/ensemble.md), or pass an LpSolver to GammaOptimizer", e);
    }
    // On the module path this module does not require OR-Tools (it has no module name): read it
    // now, wherever it was found (the class path, or an automatic module). No-op on the class path.
    OrToolsLpSolver.class.getModule().addReads(solver.getModule());
    return new OrToolsLpSolver();
  }

  @Override
  public LinearProgram newProgram() {
    return new OrToolsProgram();
  }
}
