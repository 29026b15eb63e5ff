package dev.tradeoff.ensemble.optimize;

import java.util.Optional;

/**
 * A minimisation linear program that grows: variables and rows are added between solves, and a
 * solve may start from the previous one's basis. Not thread-safe; close it to free the solver's
 * native memory.
 */
public interface LinearProgram extends AutoCloseable {

  /**
   * Adds a variable {@code lower ≤ x ≤ upper} with this coefficient in the (minimised) objective.
   *
   * @return its index, counted from 0 in the order of addition
   */
  int addVariable(double lower, double upper, double objective);

  /**
   * Adds the row {@code lower ≤ Σ_j coefficients[j] · x[variables[j]] ≤ upper}.
   *
   * @return its index, counted from 0 in the order of addition
   */
  int addRow(double lower, double upper, int[] variables, double[] coefficients);

  /**
   * Solves the program as it now stands.
   *
   * @return the optimal values of the variables, by index, or empty when the solver reached no
   *     optimum (infeasible, unbounded or out of effort)
   */
  Optional<double[]> solve();

  /** The dual value of a row at the last optimum {@link #solve} returned. */
  double dual(int row);

  /** Frees the solver; the program cannot be used afterwards. */
  @Override
  void close();
}
