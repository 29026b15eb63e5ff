/**
 * The durable budget stores: a SQLite file on one machine, or a PostgreSQL database a team shares,
 * both implementing the accounting module's {@code BudgetStore}. Requires {@code java.sql} and the
 * two JDBC drivers; sqlite-jdbc's own descriptor requires {@code org.slf4j}, so a module-path
 * program puts slf4j-api on the module path too (an optional dependency of this module's pom).
 */
module dev.tradeoff.ledger {
  requires transitive dev.tradeoff.accounting;
  requires java.sql;
  requires com.fasterxml.jackson.databind;
  requires org.xerial.sqlitejdbc;
  requires org.postgresql.jdbc;

  exports dev.tradeoff.ledger;
}
