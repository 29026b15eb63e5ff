package dev.tradeoff.ensemble.pate;

import static dev.tradeoff.ensemble.pate.TensorFlowPrivacyFixturesTest.NEAR_UNANIMOUS;
import static dev.tradeoff.ensemble.pate.TensorFlowPrivacyFixturesTest.SPLIT;
import static dev.tradeoff.ensemble.pate.TensorFlowPrivacyFixturesTest.SPREAD;
import static dev.tradeoff.ensemble.pate.TensorFlowPrivacyFixturesTest.STRONG;
import static dev.tradeoff.ensemble.pate.TensorFlowPrivacyFixturesTest.UNANIMOUS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import org.junit.jupiter.api.Test;

/**
 * The smooth-sensitivity analysis of Papernot et al. 2018 (Section 4, Appendix B.4: q₀, q₁,
 * Algorithms 3–5, the threshold check's local sensitivities, the discounted maximum and Theorem
 * 23) against TensorFlow Privacy's {@code research/pate_2018/smooth_sensitivity.py} ({@code
 * compute_logq0_gnmax}, {@code _compute_logq1}, {@code compute_local_sensitivity_bounds_gnmax},
 * {@code compute_local_sensitivity_bounds_threshold}, {@code compute_discounted_max}, {@code
 * compute_rdp_of_smooth_sensitivity_gaussian}, {@code check_conditions}), run locally with Debian's
 * numpy 2.4.6, scipy 1.17.1 and sympy 1.14.0 on the votes of {@link TensorFlowPrivacyFixturesTest}
 * (K = 250, ten classes). Agreement to 1e-6 relative.
 */
class SmoothSensitivityFixturesTest {

  static final double PERCENT = 1e-4; // 1e-6 relative
  static final int[] DISTANCES = {0, 1, 2, 5, 10, 20, 50, 100, 249};

  static void assertAt(double[] ls, double... expected) {
    for (int i = 0; i < DISTANCES.length; i++) {
      assertThat(ls[DISTANCES[i]]).as("distance %s", DISTANCES[i])
          .isCloseTo(expected[i], withinPercentage(PERCENT));
    }
  }

  @Test
  void logQ0AndLogQ1MatchComputeLogq0Gnmax() {
    double[][] cases = {{40, 20, -3.1568730493512733, -3.2603128370929104},
        {40, 10, -3.6809333817669687, -3.7900685492659574},
        {20, 20, -2.950000299489585, -3.153372782853359},
        {100, 30, -3.532859383624315, -3.5757423391333685}};
    for (double[] c : cases) {
      SmoothSensitivity.Gnmax g = new SmoothSensitivity.Gnmax(c[0], c[1], 10);
      assertThat(g.logQ0()).as("sigma %s order %s", c[0], c[1])
          .isCloseTo(c[2], withinPercentage(PERCENT));
      assertThat(g.logQ1()).as("sigma %s order %s", c[0], c[1])
          .isCloseTo(c[3], withinPercentage(PERCENT));
    }
  }

  @Test
  void gnmaxLocalSensitivitiesMatchAlgorithms4And5() {
    SmoothSensitivity.Gnmax s40 = new SmoothSensitivity.Gnmax(40, 20, 10);
    SmoothSensitivity.Gnmax s20 = new SmoothSensitivity.Gnmax(20, 20, 10);
    double plateau40 = 0.0008181986342834461;
    double plateau20 = 0.0031982281063785284;
    assertAt(s40.localSensitivities(STRONG), 0.0002110841275664451, 0.00022339297133088052,
        0.00023631001186288003, 0.00027884586022523675, 0.0003628582308826951,
        0.0005773204077925012, plateau40, plateau40, plateau40);
    assertAt(s20.localSensitivities(STRONG), 1.402089961642322e-07, 1.9178563565508876e-07,
        2.6173704762504403e-07, 6.53277745094416e-07, 2.7760560293986696e-06,
        3.5495144793394707e-05, 0.0026577218865891997, plateau20, plateau20);
    assertAt(s40.localSensitivities(NEAR_UNANIMOUS), 1.6301060750736166e-05,
        1.7493020392174918e-05, 1.8774084142154202e-05, 2.3223262775693245e-05,
        3.317141282333744e-05, 6.786064466399828e-05, 0.0004541436301871314, plateau40,
        plateau40);
    assertAt(s20.localSensitivities(NEAR_UNANIMOUS), 5.859926989595285e-13,
        8.086844678774952e-13, 1.130698238931756e-12, 3.3468168084147123e-12,
        2.4765072450286488e-11, 1.4348547067752562e-09, 1.9568902696320572e-05, plateau20,
        plateau20);
    assertAt(s40.localSensitivities(UNANIMOUS), 7.966749951274643e-06, 8.567034024519524e-06,
        9.213548500603777e-06, 1.1469570898286105e-05, 1.6572442591634542e-05,
        3.497698274136456e-05, 0.00028961475676387346, plateau40, plateau40);
    assertAt(s20.localSensitivities(UNANIMOUS), 2.8041742027931572e-14, 3.7689171195596616e-14,
        5.108075634000358e-14, 1.3612003819765412e-13, 9.182893381606709e-13,
        6.672000244033845e-11, 2.7417933458556596e-06, 0.003199247337741483, plateau20);
    // a close vote: 0 while the data-independent bound holds for every histogram within d
    assertAt(s40.localSensitivities(SPLIT), 0, 0, 0, 0, 0, 0, plateau40, plateau40, plateau40);
    assertAt(s20.localSensitivities(SPREAD), 0, 0, 0, 0, 0, 0, plateau20, plateau20, plateau20);
  }

  @Test
  void smoothSensitivitiesMatchComputeDiscountedMax() {
    SmoothSensitivity.Gnmax s40 = new SmoothSensitivity.Gnmax(40, 20, 10);
    SmoothSensitivity.Gnmax s20 = new SmoothSensitivity.Gnmax(20, 20, 10);
    assertThat(SmoothSensitivity.smooth(0.02, s40.localSensitivities(STRONG)))
        .isCloseTo(0.000449036931130996, withinPercentage(PERCENT));
    assertThat(SmoothSensitivity.smooth(0.1, s40.localSensitivities(STRONG)))
        .isCloseTo(0.0002110841275664451, withinPercentage(PERCENT));
    assertThat(SmoothSensitivity.smooth(0.02, s20.localSensitivities(STRONG)))
        .isCloseTo(0.0010320351673799404, withinPercentage(PERCENT));
    assertThat(SmoothSensitivity.smooth(0.1, s20.localSensitivities(NEAR_UNANIMOUS)))
        .isCloseTo(8.649790543841629e-07, withinPercentage(PERCENT));
    assertThat(SmoothSensitivity.smooth(0.02, s40.localSensitivities(SPLIT)))
        .isCloseTo(0.00031961116140344077, withinPercentage(PERCENT));
    assertThat(SmoothSensitivity.smooth(0.1, s40.localSensitivities(SPREAD)))
        .isCloseTo(4.5370422924239885e-08, withinPercentage(PERCENT));
    assertThat(SmoothSensitivity.smooth(0.02, s20.localSensitivities(UNANIMOUS)))
        .isCloseTo(0.0004637034032206741, withinPercentage(PERCENT));
  }

  @Test
  void thresholdLocalSensitivitiesMatchComputeLocalSensitivityBoundsThreshold() {
    int[] at = {0, 1, 2, 5, 10, 50, 100, 200, 249};
    double[][] expected = {{7.635419783407176e-05, 8.245815233731875e-05, 8.893692231924275e-05,
        0.00011073295659295166, 0.00015542747151859031, 0, 0, 1.2692988280276401e-05, 0},
        {0.0008780630174184834, 0.0009331538030933461, 0.000988446586613791,
            0.0006169301584685559, 0.0004004792403086519, 1.0083402565709371e-06,
            0.0001348313293409333, 0, 0}};
    double[] near = SmoothSensitivity.threshold(240, 250, 150, 30, 20);
    double[] spread = SmoothSensitivity.threshold(60, 250, 100, 20, 10);
    for (int i = 0; i < at.length; i++) {
      assertThat(near[at[i]]).as("distance %s", at[i])
          .isCloseTo(expected[0][i], withinPercentage(PERCENT));
      assertThat(spread[at[i]]).as("distance %s", at[i])
          .isCloseTo(expected[1][i], withinPercentage(PERCENT));
    }
    assertThat(SmoothSensitivity.smooth(0.02, near))
        .isCloseTo(0.0002497190529024977, withinPercentage(PERCENT));
    assertThat(SmoothSensitivity.smooth(0.02, spread))
        .isCloseTo(0.0009496890415846925, withinPercentage(PERCENT));
    // Papernot et al.'s MNIST check (T = 200, σ₁ = 150): data-independent for every histogram
    assertThat(SmoothSensitivity.threshold(200, 250, 200, 150, 20)).containsOnly(0.0);
  }

  @Test
  void gnssRdpMatchesTheorem23() {
    assertThat(SmoothSensitivity.gnssRdp(0.02, 1.0, 20))
        .isCloseTo(20.879621744701293, withinPercentage(PERCENT));
    assertThat(SmoothSensitivity.gnssRdp(0.0329, 5.0, 14))
        .isCloseTo(0.7312428045731407, withinPercentage(PERCENT));
    assertThat(SmoothSensitivity.gnssRdp(0.01, 0.5, 8))
        .isCloseTo(32.67032526565224, withinPercentage(PERCENT));
  }

  @Test
  void conditionsC5AndC6AgreeWithCheckConditions() {
    // check_conditions(40, 10, 20) = (True, True); check_conditions(20, 10, 20) = (True, False)
    assertThat(new SmoothSensitivity.Gnmax(40, 20, 10).conditionsHold()).isTrue();
    assertThat(new SmoothSensitivity.Gnmax(20, 20, 10).conditionsHold()).isFalse();
  }
}
