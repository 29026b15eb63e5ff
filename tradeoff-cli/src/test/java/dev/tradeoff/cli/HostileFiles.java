package dev.tradeoff.cli;

import dev.tradeoff.accounting.internal.Shown;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;

/** Hostile file contents for the sweeps, and the check that a message is safe to print. */
public final class HostileFiles {

  private HostileFiles() {}

  /** Contents by a name that ends the way the file will be named (.csv, .gz, ...). */
  public static Map<String, byte[]> contents() throws IOException {
    Map<String, byte[]> c = new LinkedHashMap<>();
    c.put("esc-header.csv", bytes("\u001b[31mred\u001b]0;title\u0007,x\n1,2\n"));
    c.put("line-breaks.csv", bytes("a\rb\u000bc\u0085d\u2028e,x\r\n1,2\n"));
    byte[] control = new byte[40];
    for (int i = 0; i < control.length; i++) {
      control[i] = (byte) (i % 32);
    }
    c.put("control-bytes.csv", concat(control, bytes(",x\n1,2\n")));
    c.put("invalid-utf8.csv", concat(new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xc3, 0x28,
        (byte) 0xe2, (byte) 0x82, 0x0a, (byte) 0xed, (byte) 0xa0, (byte) 0x80}, bytes(",x\n1\n")));
    c.put("long-line.csv", bytes("A".repeat(10_000) + "\u001b[2J" + "B".repeat(10_000) + "\n"));
    c.put("esc.json", bytes("{\"\u001b[2J\u001b[H\": \"\u001b[31m\", \"gamma\": \"\u0000\"}"));
    c.put("gzip-as-plain.csv", gzip(bytes("\u001b[31mlabel,x\nyes,1\n")));
    c.put("plain-as.gz", bytes("label,x\nyes,1\nno,-1\n"));
    c.put("bzip2-as.gz", bzip2(bytes("label,x\nyes,1\nno,-1\n")));
    byte[] gz = gzip(bytes("label,x\n" + "yes,1\n".repeat(2000)));
    c.put("truncated.csv.gz", Arrays.copyOf(gz, gz.length / 2));
    c.put("garbage.csv.bz2", bytes("BZh9 this is not bzip2 at all\n"));
    c.put("garbage.csv.zst", concat(new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd},
        bytes("\u001b[31mnot zstd\n")));
    c.put("garbage.csv.deflate", bytes("\u001b[31m plain text named deflate\n"));
    return c;
  }

  /**
   * Files that are not ledgers, by path: one with the ledger's header but no tables, another
   * application's database whose table name holds escape sequences, text, and devices.
   */
  public static Map<String, String> ledgers(Path dir) throws SQLException, IOException {
    Map<String, String> l = new LinkedHashMap<>();
    Path headerOnly = dir.resolve("ledger-header-only.db");
    Path foreign = dir.resolve("ledger-foreign.db");
    Files.deleteIfExists(headerOnly);
    Files.deleteIfExists(foreign);
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + headerOnly);
        Statement s = c.createStatement()) {
      s.execute("PRAGMA application_id = " + dev.tradeoff.ledger.SqliteLedger.APPLICATION_ID);
      s.execute("PRAGMA user_version = " + dev.tradeoff.ledger.SqliteLedger.SCHEMA_VERSION);
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + foreign);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE \"\u001b[2J\u001b[31m\nred\" (x)");
    }
    Path text = Files.write(dir.resolve("ledger-text.db"), bytes("\u001b[31m".repeat(200)));
    l.put(headerOnly.toString(), "header-only");
    l.put(foreign.toString(), "foreign");
    l.put(text.toString(), "text");
    l.put("/dev/null", "/dev/null");
    l.put("/dev/full", "/dev/full");
    return l;
  }

  /**
   * Whether a line is safe to print: no control character (ESC, line breaks, NUL...), no
   * replacement character, no format character, and no longer than the command line's limit.
   */
  public static boolean safe(String line) {
    if (line.length() > "tradeoff: ".length() + Shown.LINE_LIMIT + 40) {
      return false;
    }
    return line.codePoints().noneMatch(c -> Character.isISOControl(c) || c == 0xFFFD
        || Character.getType(c) == Character.FORMAT || c == 0x2028 || c == 0x2029);
  }

  public static byte[] gzip(byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (OutputStream z = new GZIPOutputStream(out)) {
      z.write(data);
    }
    return out.toByteArray();
  }

  public static byte[] bzip2(byte[] data) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (OutputStream z = new BZip2CompressorOutputStream(out)) {
      z.write(data);
    }
    return out.toByteArray();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }
}
