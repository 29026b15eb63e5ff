package dev.tradeoff.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.guarantee.PureDp;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerFormatTest {

  @TempDir Path dir;

  @Test
  void aFileThatIsNotSqliteIsRefusedAndLeftUntouched() throws Exception {
    Path file = dir.resolve("notes.db");
    Files.writeString(file, "these are my notes, not a database\n".repeat(200));
    byte[] before = Files.readAllBytes(file);
    assertThatThrownBy(() -> SqliteLedger.openOrCreate(file, new PureDp(1)))
        .isInstanceOf(LedgerFormatException.class)
        .hasMessageContaining("not a Tradeoff privacy ledger")
        .hasMessageContaining("not an SQLite database");
    assertThatThrownBy(() -> SqliteLedger.open(file)).isInstanceOf(LedgerFormatException.class);
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
  }

  @Test
  void anotherApplicationsSqliteDatabaseIsRefusedAndLeftUntouched() throws Exception {
    Path file = dir.resolve("app.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)");
      s.execute("INSERT INTO customers (name) VALUES ('Ada')");
    }
    byte[] before = Files.readAllBytes(file);
    assertThatThrownBy(() -> SqliteLedger.openOrCreate(file, new PureDp(1)))
        .isInstanceOf(LedgerFormatException.class)
        .hasMessageContaining("another application")
        .hasMessageContaining("customers");
    assertThatThrownBy(() -> SqliteLedger.open(file))
        .isInstanceOf(LedgerFormatException.class)
        .hasMessageContaining("another application");
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
  }

  @Test
  void aLedgerOfAnotherSchemaVersionIsRefused() throws Exception {
    Path file = dir.resolve("future.db");
    SqliteLedger.openOrCreate(file, new PureDp(1)).close();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      s.execute("PRAGMA user_version = 7");
    }
    assertThatThrownBy(() -> SqliteLedger.open(file))
        .isInstanceOf(LedgerFormatException.class)
        .hasMessageContaining("schema version 7")
        .hasMessageContaining("reads only versions 1 and 2 (migrated) and 3");
  }

  @Test
  void aFileWithTheLedgersHeaderButNoTablesIsRefusedAndLeftUntouched() throws Exception {
    Path file = dir.resolve("header-only.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      s.execute("PRAGMA application_id = " + SqliteLedger.APPLICATION_ID);
      s.execute("PRAGMA user_version = " + SqliteLedger.SCHEMA_VERSION);
    }
    byte[] before = Files.readAllBytes(file);
    assertThatThrownBy(() -> SqliteLedger.open(file))
        .isInstanceOf(LedgerFormatException.class)
        .hasMessageContaining("is not a Tradeoff privacy ledger")
        .hasMessageContaining("not its tables");
    assertThatThrownBy(() -> SqliteLedger.openOrCreate(file, new PureDp(1)))
        .isInstanceOf(LedgerFormatException.class)
        .hasMessageContaining("not its tables");
    assertThat(Files.readAllBytes(file)).isEqualTo(before);
  }

  @Test
  void aLedgerWithTamperedAmountsIsRefusedAsDamaged() throws Exception {
    Path file = dir.resolve("tampered.db");
    try (SqliteLedger ledger = SqliteLedger.openOrCreate(file, new PureDp(1))) {
      ledger.charge("real", new PureDp(0.5));
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement s = c.createStatement()) {
      s.execute("UPDATE tradeoff_charges SET charged = '-0.5'");
    }
    assertThatThrownBy(() -> SqliteLedger.open(file))
        .isInstanceOf(LedgerFormatException.class)
        .hasMessageContaining("damaged")
        .hasMessageContaining("entry #1");
  }

  @Test
  void aLedgerWithOverwrittenPagesIsRefusedAsDamaged() throws Exception {
    Path file = dir.resolve("corrupt.db");
    try (SqliteLedger ledger = SqliteLedger.openOrCreate(file, new PureDp(1))) {
      for (int i = 0; i < 50; i++) {
        ledger.charge("query number " + i + " with a long label to fill pages", new PureDp(0.001));
      }
    }
    long size = Files.size(file);
    assertThat(size).isGreaterThan(8192);
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      byte[] garbage = new byte[(int) size - 4096];
      Arrays.fill(garbage, (byte) 0x5A);
      raf.seek(4096); // keep the 100-byte header and page 1, destroy every other page
      raf.write(garbage);
    }
    assertThatThrownBy(() -> SqliteLedger.open(file))
        .isInstanceOf(LedgerFormatException.class)
        .hasMessageContaining("damaged");
  }

  @Test
  void aTruncatedHeaderIsRefused() throws Exception {
    Path file = dir.resolve("truncated.db");
    SqliteLedger.openOrCreate(file, new PureDp(1)).close();
    byte[] head = Arrays.copyOf(Files.readAllBytes(file), 50);
    Files.write(file, head);
    assertThatThrownBy(() -> SqliteLedger.open(file))
        .isInstanceOf(LedgerFormatException.class)
        .hasMessageContaining("not a usable Tradeoff privacy ledger")
        .hasMessageContaining("damaged");
    assertThat(new String(head, 0, 15, StandardCharsets.US_ASCII)).isEqualTo("SQLite format 3");
  }
}
