import type SQLite from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';

type Row = Record<string, unknown>;

/** A row object of a statement's columns, from its values in column order. */
function rowMaker(columns: readonly string[]): (values: readonly unknown[]) => Row {
  // Column names come from our SQL (not from requests); as quoted keys of an object literal, except
  // __proto__, which a literal would take as the prototype.
  if (columns.includes('__proto__')) {
    return (values) => {
      const row: Row = {};
      columns.forEach((c, i) => Object.defineProperty(row, c, { value: values[i], enumerable: true, writable: true, configurable: true }));
      return row;
    };
  }
  const literal = columns.map((c, i) => `${JSON.stringify(c)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${literal} };`) as (values: readonly unknown[]) => Row;
}

/**
 * A prepared statement as Kysely's SQLite driver uses it, whose rows are made in JavaScript from
 * better-sqlite3's raw values. better-sqlite3 makes each row through V8's C++ API, looking up each
 * column's name for every row, as a slow (dictionary-mode) object, which every later read of a
 * property pays too: 11 rows of a feed page's links (21 columns) cost ~75 µs as objects against
 * ~45 µs as arrays (measured). An object literal compiled once per statement makes the same
 * objects in V8's fast mode for almost nothing.
 */
export function withFastRows(statement: SQLite.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  statement.raw(true);
  const make = rowMaker(statement.columns().map((c) => c.name));
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(make),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as Iterable<unknown[]>) yield make(values);
    },
  };
}
