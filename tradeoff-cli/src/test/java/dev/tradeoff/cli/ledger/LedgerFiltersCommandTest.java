package dev.tradeoff.cli.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerFiltersCommandTest {

  @TempDir Path dir;

  @Test
  void createFitsChargeHistoryRemainingVerifyAndPlot() throws Exception {
    String l = dir.resolve("team.db").toString();
    assertThat(CliRun.of("ledger", "create", "--ledger", l, "--budget", "8,1e-5",
        "--filters", "gdp").status()).isZero();
    // sigma 4.6795 is (1, 1e-7)-DP: 60 fit by GDP
    CliRun fits = CliRun.of("ledger", "fits", "--ledger", l, "--mechanism",
        "gaussian:sigma=4.6795", "--count", "60");
    assertThat(fits.status()).isZero();
    assertThat(fits.out()).contains("60 of");
    assertThat(CliRun.of("ledger", "fits", "--ledger", l, "--mechanism",
        "gaussian:sigma=4.6795", "--count", "61").status()).isEqualTo(3);
    // the exact count for millions of releases: mu sqrt(N) in closed form, no search limit
    CliRun many = CliRun.of("ledger", "fits", "--ledger", l, "--mechanism",
        "gaussian:sigma=1000", "--count", "1000000");
    assertThat(many.status()).as(many.err()).isZero();
    assertThat(many.out()).startsWith("2775657 of");
    assertThat(CliRun.of("ledger", "charge", "--ledger", l, "--mechanism",
        "gaussian:sigma=4.6795", "--count", "59", "--label", "batch").status()).isZero();
    CliRun refused = CliRun.of("ledger", "charge", "--ledger", l, "--mechanism",
        "gaussian:sigma=4.6795", "--count", "2", "--label", "too many");
    assertThat(refused.status()).isEqualTo(3);
    CliRun history = CliRun.of("ledger", "history", "--ledger", l, "--csv");
    assertThat(history.status()).isZero();
    assertThat(history.out().lines().count()).isEqualTo(2);
    assertThat(history.out()).contains("ledger charge").contains("gdp");
    assertThat(CliRun.of("ledger", "remaining", "--ledger", l, "--json").out())
        .contains("muRemaining");
    assertThat(CliRun.of("ledger", "verify", "--ledger", l).out()).contains("ok: 1 entries");
    Path png = dir.resolve("spend.png");
    assertThat(CliRun.of("ledger", "plot", "--ledger", l, "--out", png.toString()).status())
        .isZero();
    assertThat(Files.size(png)).isPositive();

    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + l);
        Statement s = c.createStatement()) {
      s.execute("UPDATE tradeoff_ledger SET value = '9.0,1.0E-5' WHERE key = 'budget'");
    }
    CliRun tampered = CliRun.of("ledger", "verify", "--ledger", l);
    assertThat(tampered.status()).isNotZero();
    assertThat(tampered.err().strip().lines().count()).isEqualTo(1);
    assertThat(tampered.err()).contains("budget or policy was edited");
  }
}
