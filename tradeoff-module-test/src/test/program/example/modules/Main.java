package example.modules;

import dev.tradeoff.accounting.budget.InMemoryBudgetStore;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.pld.PldAccountant;
import dev.tradeoff.amplification.bernoulli.BernoulliSampling;
import dev.tradeoff.audit.PrivacyAuditor;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.optimize.GammaOptimizer;
import dev.tradeoff.ensemble.optimize.Objective;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import dev.tradeoff.learning.teachers.TeacherEnsemble;
import dev.tradeoff.ledger.SqliteLedger;
import dev.tradeoff.mechanisms.laplace.LaplaceMechanism;
import dev.tradeoff.selection.filter.PureDpFilter;
import dev.tradeoff.shuffle.analysis.ExactShuffleAnalysis;
import java.nio.file.Path;
import java.util.List;

/** Uses every library module from the module path and prints what it found, one fact a line. */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    // Every library module is a named module with a descriptor, not an automatic one.
    for (Class<?> c : List.of(InMemoryBudgetStore.class, SqliteLedger.class,
        LaplaceMechanism.class, PrivacyAuditor.class, BernoulliSampling.class,
        ExactShuffleAnalysis.class, NoiseFunction.class, PureDpFilter.class,
        TeacherEnsemble.class)) {
      Module m = c.getModule();
      System.out.println("module " + m.getName() + " "
          + (m.getDescriptor().isAutomatic() ? "automatic" : "named"));
    }
    // Accounting: 100 Gaussian releases (sigma 1) composed with privacy loss distributions.
    var profile = new PldAccountant().account(new SelfComposedEvent(new GaussianEvent(1.0), 100),
        Neighbouring.ADD_OR_REMOVE_ONE);
    System.out.printf("gaussian epsilon %.2f%n", profile.epsilon(1e-5));
    // The budget API in memory, then the SQLite ledger (java.sql, the JDBC driver, slf4j).
    InMemoryBudgetStore memory = new InMemoryBudgetStore(new PureDp(1.0));
    memory.charge("count", new PureDp(0.25));
    System.out.println("in-memory remaining " + memory.remaining());
    SqliteLedger ledger = SqliteLedger.openOrCreate(Path.of(args[0]), new ApproxDp(1.0, 1e-5));
    ledger.charge("count", new ApproxDp(0.5, 0));
    System.out.println("ledger remaining " + ledger.remaining());
    // DaRRM: the exact verifier certifies the subsampling γ of [DaRRM24] (K = 11, m = 3).
    DarrmSetting setting = DarrmSetting.withDefaultDelta(11, 0.1, 1e-5, 3);
    boolean certified = new PrivacyVerifier(setting).certify(NoiseFunction.subsampling(11, 3))
        .isPrivate();
    System.out.println("darrm subsampling private " + certified);
    // The LP: OR-Tools when it is on the class path, else the error that names it.
    try {
      var result = new GammaOptimizer(setting).optimize(new Objective.Surrogate(0.75));
      System.out.printf("lp gamma(6) %.6f private %s%n", result.gamma().at(6),
          result.certificate().isPrivate());
    } catch (IllegalStateException e) {
      System.out.println("lp " + e.getMessage());
    }
  }
}
