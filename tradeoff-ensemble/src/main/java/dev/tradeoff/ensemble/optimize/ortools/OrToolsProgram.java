package dev.tradeoff.ensemble.optimize.ortools;

import com.google.ortools.Loader;
import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPSolverParameters;
import com.google.ortools.linearsolver.MPVariable;
import dev.tradeoff.ensemble.optimize.LinearProgram;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A growing LP kept in one GLOP instance and re-solved by its dual simplex from the previous basis
 * (after appending rows the basis stays dual feasible). When that reaches no optimum the program
 * is rebuilt from scratch and solved by GLOP at tight tolerances, GLOP at its defaults, then CLP.
 */
final class OrToolsProgram implements LinearProgram {

  /**
   * GLOP's settings for the program kept across solves. Dual simplex: after appending rows the
   * previous basis stays dual feasible. No presolve: it would run on every re-solve over all rows
   * and discard the basis (K = 1001, Δ = 0, m = 10: about 2.5× slower). An iteration limit: on the
   * optimiser's dense, badly scaled rows the warm dual simplex occasionally stalls for minutes;
   * past the limit the program is solved from scratch instead. A count of pivots, not a clock, so
   * the result does not depend on the machine's load.
   */
  private static final String INCREMENTAL_GLOP =
      "use_dual_simplex: true use_preprocessing: false max_number_of_iterations: 5000";

  /** The solvers tried from scratch, in order, when the incremental solve reaches no optimum. */
  private static final String[] FROM_SCRATCH = {"GLOP", "GLOP", "CLP"};

  private record Variable(double lower, double upper, double objective) {}

  private record Row(double lower, double upper, int[] variables, double[] coefficients) {}

  private final List<Variable> variables = new ArrayList<>();
  private final List<Row> rows = new ArrayList<>();
  private final MPSolver solver;
  private final List<MPVariable> x = new ArrayList<>();
  private final List<MPConstraint> constraints = new ArrayList<>();
  /** The rows' dual values at the last optimum. */
  private double[] duals = new double[0];

  OrToolsProgram() {
    try {
      Loader.loadNativeLibraries();
    } catch (RuntimeException | LinkageError e) {
      throw new IllegalStateException("OR-Tools could not load its native library ("
          + e.getMessage() + "): add the OR-Tools platform jar for this machine,"
          + " com.google.ortools:ortools-<os>-<arch> (docs/ensemble.md)", e);
    }
    solver = MPSolver.createSolver("GLOP");
    solver.setSolverSpecificParametersAsString(INCREMENTAL_GLOP);
    solver.objective().setMinimization();
  }

  @Override
  public int addVariable(double lower, double upper, double objective) {
    Variable v = new Variable(lower, upper, objective);
    variables.add(v);
    x.add(add(solver, v, x.size()));
    return variables.size() - 1;
  }

  @Override
  public int addRow(double lower, double upper, int[] vars, double[] coefficients) {
    Row row = new Row(lower, upper, vars.clone(), coefficients.clone());
    rows.add(row);
    constraints.add(add(solver, row, x));
    return rows.size() - 1;
  }

  @Override
  public Optional<double[]> solve() {
    Optional<double[]> warm = optimum(solver, x, constraints, tightTolerances());
    if (warm.isPresent()) {
      return warm;
    }
    for (int a = 0; a < FROM_SCRATCH.length; a++) {
      MPSolver fresh = MPSolver.createSolver(FROM_SCRATCH[a]);
      if (fresh == null) {
        continue;
      }
      try {
        fresh.objective().setMinimization();
        List<MPVariable> freshX = new ArrayList<>();
        for (Variable v : variables) {
          freshX.add(add(fresh, v, freshX.size()));
        }
        List<MPConstraint> freshRows = new ArrayList<>();
        for (Row r : rows) {
          freshRows.add(add(fresh, r, freshX));
        }
        Optional<double[]> out = optimum(fresh, freshX, freshRows,
            a == 0 ? tightTolerances() : new MPSolverParameters());
        if (out.isPresent()) {
          return out;
        }
      } finally {
        fresh.delete();
      }
    }
    return Optional.empty();
  }

  @Override
  public double dual(int row) {
    return duals[row];
  }

  @Override
  public void close() {
    solver.delete();
  }

  private static MPVariable add(MPSolver solver, Variable v, int index) {
    MPVariable variable = solver.makeNumVar(v.lower(), v.upper(), "x" + index);
    solver.objective().setCoefficient(variable, v.objective());
    return variable;
  }

  private static MPConstraint add(MPSolver solver, Row r, List<MPVariable> x) {
    MPConstraint c = solver.makeConstraint(r.lower(), r.upper());
    for (int j = 0; j < r.variables().length; j++) {
      c.setCoefficient(x.get(r.variables()[j]), r.coefficients()[j]);
    }
    return c;
  }

  /** The variables' values and the rows' duals when {@code solver} reaches an optimum. */
  private Optional<double[]> optimum(MPSolver solver, List<MPVariable> x,
      List<MPConstraint> rows, MPSolverParameters parameters) {
    if (solver.solve(parameters) != MPSolver.ResultStatus.OPTIMAL) {
      return Optional.empty();
    }
    double[] values = new double[x.size()];
    for (int j = 0; j < values.length; j++) {
      values[j] = x.get(j).solutionValue();
    }
    duals = new double[rows.size()];
    for (int i = 0; i < duals.length; i++) {
      duals[i] = rows.get(i).dualValue();
    }
    return Optional.of(values);
  }

  private static MPSolverParameters tightTolerances() {
    MPSolverParameters params = new MPSolverParameters();
    params.setDoubleParam(MPSolverParameters.DoubleParam.PRIMAL_TOLERANCE, 1e-10);
    params.setDoubleParam(MPSolverParameters.DoubleParam.DUAL_TOLERANCE, 1e-10);
    return params;
  }
}
