/**
 * DaRRM private majority ensembling [DaRRM24]: noise functions γ, the exact privacy verifier, the
 * LP optimiser behind {@code LpSolver}, and GNMax.
 *
 * <p>OR-Tools (GLOP) is an optional dependency, used only by the non-exported package that
 * implements {@code LpSolver.orTools()}. It has no module name (its platform jars' file names give
 * none either), so this descriptor does not require it: a program that runs the LP puts OR-Tools
 * on the class path, even when Tradeoff is on the module path, and this module reads it when the
 * LP first runs ({@code Module.addReads}).
 */
module dev.tradeoff.ensemble {
  requires transitive dev.tradeoff.accounting;
  requires dev.tradeoff.mechanisms;

  exports dev.tradeoff.ensemble.aggregate;
  exports dev.tradeoff.ensemble.gnmax;
  exports dev.tradeoff.ensemble.noise;
  exports dev.tradeoff.ensemble.optimize;
  exports dev.tradeoff.ensemble.pate;
  exports dev.tradeoff.ensemble.privacy;
  exports dev.tradeoff.ensemble.utility;
}
