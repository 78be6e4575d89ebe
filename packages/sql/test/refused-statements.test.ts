import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { refusedStatementIn, type SqlDialectName, sqlTokens } from "../src/index.js";

const DIALECTS: readonly SqlDialectName[] = ["sqlite", "postgres"];

/** The refused statement of `sql` as name and line, on each dialect. */
function found(sql: string, dialect: SqlDialectName) {
  const refused = refusedStatementIn(sql, dialect);
  return refused && { statement: refused.statement, line: refused.line };
}

describe("refusedStatementIn finds transaction control", () => {
  const cases: [string, string][] = [
    ["BEGIN", "BEGIN"],
    ["begin transaction", "BEGIN"],
    ["BEGIN IMMEDIATE", "BEGIN"],
    ["START TRANSACTION ISOLATION LEVEL SERIALIZABLE", "START TRANSACTION"],
    ["COMMIT", "COMMIT"],
    ["commit and chain", "COMMIT"],
    ["COMMIT PREPARED 'x'", "COMMIT"],
    ["END", "END"],
    ["END TRANSACTION", "END"],
    ["ROLLBACK", "ROLLBACK"],
    ["ROLLBACK TO SAVEPOINT a", "ROLLBACK"],
    ["ABORT", "ABORT"],
    ["SAVEPOINT a", "SAVEPOINT"],
    ["RELEASE a", "RELEASE"],
    ["RELEASE SAVEPOINT tessera_1", "RELEASE"],
    ["PREPARE TRANSACTION 'x'", "PREPARE TRANSACTION"],
    ["VACUUM", "VACUUM"],
    ["PRAGMA foreign_keys = OFF", "PRAGMA foreign_keys"],
    ["pragma main.FOREIGN_KEYS=0", "PRAGMA foreign_keys"],
  ];
  it.each(cases)("`%s` is %s", (statement, name) => {
    for (const dialect of DIALECTS) {
      expect(found(`CREATE TABLE a (id INTEGER);\n${statement};\nSELECT 1`, dialect)).toEqual({
        statement: name,
        line: 2,
      });
      expect(found(statement, dialect)).toEqual({ statement: name, line: 1 });
    }
  });

  it("names the line the statement starts on, past comments, literals and bodies", () => {
    const sql = `-- the notes table
CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT DEFAULT 'a;
b');
/* a comment
   of two lines */ INSERT INTO notes (body) VALUES ('COMMIT;'); CREATE TRIGGER touch AFTER INSERT ON notes
BEGIN
  UPDATE notes SET body = CASE WHEN body IS NULL THEN 'x' ELSE body END WHERE id = NEW.id;
END;

   commit;`;
    for (const dialect of DIALECTS) {
      expect(found(sql, dialect)).toEqual({ statement: "COMMIT", line: 10 });
    }
  });

  it("finds a statement after a PostgreSQL function and a trigger without a body", () => {
    const sql = `CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END;
$$;
CREATE TRIGGER touch BEFORE UPDATE ON notes FOR EACH ROW EXECUTE FUNCTION touch();
ROLLBACK;`;
    expect(found(sql, "postgres")).toEqual({ statement: "ROLLBACK", line: 8 });
  });

  it("nests block comments on PostgreSQL only, as each engine reads them", () => {
    const sql = "/* outer /* inner */ COMMIT */ SELECT 1";
    expect(found(sql, "postgres")).toBeUndefined();
    expect(found(sql, "sqlite")).toEqual({ statement: "COMMIT", line: 1 });
  });

  it("ends a line comment where each engine does: PostgreSQL at a carriage return too", () => {
    expect(found("SELECT 1; -- note\rCOMMIT", "postgres")).toEqual({
      statement: "COMMIT",
      line: 1,
    });
    expect(found("SELECT 1; -- note\rCOMMIT", "sqlite")).toBeUndefined();
  });

  it("reads $ as a parameter, not a dollar quote, when no tag follows", () => {
    expect(found("SELECT $1; COMMIT", "postgres")).toEqual({ statement: "COMMIT", line: 1 });
    expect(found("SELECT a$b$; COMMIT", "postgres")).toEqual({ statement: "COMMIT", line: 1 });
  });
});

describe("refusedStatementIn passes what only looks like transaction control", () => {
  const accepted: [string, SqlDialectName[], string][] = [
    [
      "a SQLite trigger whose body has BEGIN, CASE … END, RAISE(ROLLBACK) and END",
      ["sqlite", "postgres"],
      `CREATE TEMP TRIGGER IF NOT EXISTS guard BEFORE DELETE ON notes
WHEN CASE WHEN old.id > 0 THEN 1 END
BEGIN
  SELECT RAISE(ROLLBACK, 'notes are kept; END');
  UPDATE counts SET n = CASE WHEN n > 0 THEN n - 1 ELSE 0 END;
END;
CREATE TABLE after_trigger (id INTEGER)`,
    ],
    [
      "a PostgreSQL function whose dollar-quoted body begins, commits nothing and ends",
      ["postgres"],
      `CREATE OR REPLACE FUNCTION touch() RETURNS trigger AS $body$
BEGIN
  -- COMMIT is not allowed here either, but it is the function's text
  IF NEW.body = '$$' THEN RETURN NULL; END IF;
  RETURN NEW;
END;
$body$ LANGUAGE plpgsql;
CREATE TABLE after_function (id BIGINT)`,
    ],
    [
      "a function with a single-quoted body",
      ["postgres", "sqlite"],
      "CREATE FUNCTION f() RETURNS void AS 'BEGIN; COMMIT; END;' LANGUAGE sql",
    ],
    [
      "a SQL-standard body (BEGIN ATOMIC … END)",
      ["postgres"],
      "CREATE PROCEDURE insert_two() LANGUAGE sql BEGIN ATOMIC INSERT INTO t VALUES (1); INSERT INTO t VALUES (CASE WHEN true THEN 2 END); END; CREATE TABLE after_procedure (id BIGINT)",
    ],
    [
      "a DO block (its own COMMIT fails inside a transaction, leaving nothing)",
      ["postgres"],
      "DO $$ BEGIN PERFORM 1; END $$",
    ],
    [
      "keywords inside literals, escape strings and comments",
      ["postgres"],
      "INSERT INTO log VALUES ('COMMIT;'), ('it''s; ROLLBACK'), (E'it\\'s; BEGIN'), (U&'END;'); -- COMMIT\n/* ROLLBACK; /* SAVEPOINT */ END; */ SELECT 1",
    ],
    [
      "keywords as quoted names, and SQLite's backticks and brackets",
      ["sqlite"],
      "CREATE TABLE \"commit\" (\"end\" TEXT, `begin` TEXT, [rollback] TEXT); INSERT INTO \"commit\" VALUES ('a', 'b', 'c')",
    ],
    [
      "keywords that are not the statement's first word",
      ["sqlite", "postgres"],
      "CREATE TABLE events (id INTEGER, begin_at TEXT, end_at TEXT, x TEXT UNIQUE ON CONFLICT ROLLBACK); UPDATE events SET x = 'end'; SELECT savepoint FROM t",
    ],
    [
      "pragmas that run in a transaction, and a prepared statement",
      ["sqlite", "postgres"],
      "PRAGMA foreign_key_check; PRAGMA user_version = 3; PREPARE pick AS SELECT 1",
    ],
  ];
  it.each(accepted)("%s", (_, dialects, sql) => {
    for (const dialect of dialects) expect(found(sql, dialect)).toBeUndefined();
    // And the same text followed by a COMMIT is refused, on its own line: the body ended.
    const lines = sql.split("\n").length;
    for (const dialect of dialects) {
      expect(found(`${sql};\nCOMMIT;`, dialect)).toEqual({ statement: "COMMIT", line: lines + 1 });
    }
  });

  it("never refuses any text inside a literal, a quoted name or a comment", () => {
    // Pieces that open or close literals, comments and bodies, and the refused words.
    const piece = fc.constantFrom(
      ..."' \" ` [ ] $ $$ $x$ /* */ * / - -- \\ E' ; ( ) é a".split(" "),
      "\n",
      "\r",
      " ",
      "COMMIT",
      "BEGIN",
      "END",
      "ROLLBACK",
    );
    const text = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(""));
    fc.assert(
      fc.property(text, fc.constantFrom(...DIALECTS), (inside, dialect) => {
        const quoted = (quote: string) => inside.replaceAll(quote, quote + quote);
        const texts = [
          `INSERT INTO t VALUES ('${quoted("'")}')`,
          `SELECT 1 AS "${quoted('"')}"`,
          `SELECT 1 -- ${inside.replace(/[\n\r]/g, " ")}`,
          ...(/\/\*|\*\//.test(inside) ? [] : [`SELECT 1 /* ${inside} */`]),
          ...(dialect === "postgres" && !inside.includes("$x$") ? [`SELECT $x$${inside}$x$`] : []),
        ];
        for (const sql of texts) expect(found(sql, dialect)).toBeUndefined();
      }),
      { seed: 31, numRuns: 500 },
    );
  });
});

describe("sqlTokens", () => {
  it("reads quoted names without their quotes, and literals and comments apart from words", () => {
    const tokens = [
      ...sqlTokens('SELECT "a""b", `c`, [d e], \'f\' /* g */ -- h\nFROM t', "sqlite"),
    ];
    expect(tokens.map(({ kind, text, line }) => [kind, text, line])).toEqual([
      ["word", "SELECT", 1],
      ["quoted", 'a"b', 1],
      ["other", ",", 1],
      ["quoted", "c", 1],
      ["other", ",", 1],
      ["quoted", "d e", 1],
      ["other", ",", 1],
      ["string", "'f'", 1],
      ["word", "FROM", 2],
      ["word", "t", 2],
    ]);
  });
});
