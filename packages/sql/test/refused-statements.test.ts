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
    const opening = {
      sqlite: "CREATE TRIGGER touch AFTER INSERT ON notes\nBEGIN",
      postgres: "CREATE PROCEDURE touch(id int) LANGUAGE sql\nBEGIN ATOMIC",
    };
    for (const dialect of DIALECTS) {
      const sql = `-- the notes table
CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT DEFAULT 'a;
b');
/* a comment
   of two lines */ INSERT INTO notes (body) VALUES ('COMMIT;'); ${opening[dialect]}
  UPDATE notes SET body = CASE WHEN body IS NULL THEN 'x' ELSE body END WHERE id = 1;
END;

   commit;`;
      expect(found(sql, dialect)).toEqual({ statement: "COMMIT", line: 10 });
    }
  });

  // The attack of issue 44: a body that names a column `begin` (or `case`, or `begin atomic`)
  // once counted as a block that never ended, so the COMMIT after the body passed as part of it.
  const bodiesNamingKeywords: [string, SqlDialectName, string][] = [
    [
      "a SQLite trigger body setting a column named begin",
      "sqlite",
      "CREATE TRIGGER t AFTER INSERT ON events BEGIN UPDATE events SET begin = 1; END",
    ],
    [
      "a SQLite trigger named begin, on a column named begin",
      "sqlite",
      "CREATE TRIGGER begin AFTER UPDATE OF begin ON events WHEN new.begin > 0 BEGIN SELECT case FROM events; END",
    ],
    [
      "a PostgreSQL body selecting a column named begin",
      "postgres",
      "CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT begin FROM events; END",
    ],
    [
      "a PostgreSQL body selecting begin aliased atomic, and a column named case",
      "postgres",
      "CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT begin atomic, t.case FROM events t; END",
    ],
  ];
  it.each(bodiesNamingKeywords)("finds the COMMIT after %s", (_, dialect, body) => {
    expect(found(body, dialect)).toBeUndefined();
    expect(found(`${body}; COMMIT; DROP TABLE events`, dialect)).toEqual({
      statement: "COMMIT",
      line: 1,
    });
    // A top-level END commits as well, and is not the body's.
    expect(found(`${body}; END; DROP TABLE events`, dialect)).toEqual({
      statement: "END",
      line: 1,
    });
  });

  it("finds a PostgreSQL END after a function whose parameter is named begin, of a type atomic", () => {
    // No body here: `begin atomic` inside the parentheses is a parameter, and END commits.
    const sql =
      "CREATE FUNCTION f(begin atomic) RETURNS int LANGUAGE sql RETURN 1; END; DROP TABLE events";
    expect(found(sql, "postgres")).toEqual({ statement: "END", line: 1 });
  });

  it("finds transaction control inside a body, where neither engine lets it stand", () => {
    const sqlite = "CREATE TRIGGER t AFTER INSERT ON e BEGIN SELECT 1; COMMIT; END";
    const postgres = "CREATE PROCEDURE p() LANGUAGE sql BEGIN ATOMIC SELECT 1; ROLLBACK; END";
    expect(found(sqlite, "sqlite")).toEqual({ statement: "COMMIT", line: 1 });
    expect(found(postgres, "postgres")).toEqual({ statement: "ROLLBACK", line: 1 });
  });

  it("reads no body into a statement that has none on the engine", () => {
    // PostgreSQL triggers call a function; its BEGIN here is a syntax error, not a body.
    expect(
      found("CREATE TRIGGER t BEFORE INSERT ON e BEGIN SELECT 1; END; SELECT 2", "postgres"),
    ).toEqual({ statement: "END", line: 1 });
    // SQLite has no SQL-standard bodies.
    expect(found("CREATE FUNCTION f() BEGIN ATOMIC SELECT 1; END; SELECT 2", "sqlite")).toEqual({
      statement: "END",
      line: 1,
    });
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
      ["sqlite"],
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

describe("refusedStatementIn over random migrations", () => {
  const keyword = fc.constantFrom("COMMIT", "BEGIN", "END", "ROLLBACK", "SAVEPOINT", "ATOMIC");
  // Text for inside a literal, a name or a comment: the refused words among what opens and
  // closes literals, comments and bodies.
  const inner = fc
    .array(
      fc.oneof(keyword, fc.constantFrom(..."; ' \" $$ /* */ -- \\ ( ) a".split(" "), "\n", " ")),
      {
        maxLength: 12,
      },
    )
    .map((pieces) => pieces.join(""));
  const quoted = (text: string, quote: string) =>
    quote + text.replaceAll(quote, quote + quote) + quote;
  const lowerOrUpper = (word: string) =>
    fc.constantFrom(word, word.toLowerCase()).map((chosen) => chosen);

  /** Statements that only name the keywords, in literals, names, comments and bodies. */
  function harmless(dialect: SqlDialectName): fc.Arbitrary<string> {
    const column = fc.oneof(
      lowerOrUpper("begin"),
      fc.constantFrom("t.end", "t.case", "t.commit", "savepoint", "release"),
      inner.map((text) => quoted(text, '"')),
    );
    const bodyStatement = fc.oneof(
      column.map((name) => `UPDATE t SET ${name} = 1;`),
      fc.tuple(column, column).map(([a, b]) => `SELECT ${a}, CASE WHEN ${b} THEN 1 END FROM t;`),
      inner.map((text) => `INSERT INTO t VALUES (${quoted(text, "'")});`),
    );
    const body = fc
      .array(bodyStatement, { minLength: 1, maxLength: 3 })
      .map((all) => all.join(" "));
    const routine =
      dialect === "sqlite"
        ? body.map((text) => `CREATE TRIGGER tr AFTER INSERT ON t BEGIN ${text} END`)
        : fc.oneof(
            body.map(
              (text) => `CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC ${text} END`,
            ),
            inner
              .filter((text) => !text.includes("$$"))
              .map(
                (text) =>
                  `CREATE FUNCTION g() RETURNS void AS $$ BEGIN ${text} END $$ LANGUAGE plpgsql`,
              ),
          );
    return fc.oneof(
      inner.map((text) => `INSERT INTO t VALUES (${quoted(text, "'")})`),
      column.map((name) => `SELECT ${name} FROM t`),
      inner.map((text) => `SELECT 1 -- ${text.replace(/[\n\r]/g, " ")}\n`),
      inner.filter((text) => !/\/\*|\*\//.test(text)).map((text) => `/* ${text} */ SELECT 1`),
      routine,
    );
  }
  const refusedStatement = fc.constantFrom(
    ["COMMIT", "COMMIT"],
    ["end", "END"],
    ["ROLLBACK", "ROLLBACK"],
    ["begin", "BEGIN"],
    ["START TRANSACTION", "START TRANSACTION"],
    ["Savepoint a", "SAVEPOINT"],
  );

  it("refuses a migration exactly when a statement of it controls the transaction", () => {
    const migration = fc.constantFrom(...DIALECTS).chain((dialect) =>
      fc.record({
        dialect: fc.constant(dialect),
        statements: fc.array(harmless(dialect), { minLength: 1, maxLength: 6 }),
        refused: fc.option(fc.tuple(refusedStatement, fc.nat()), { nil: undefined }),
      }),
    );
    fc.assert(
      fc.property(migration, ({ dialect, statements, refused }) => {
        if (!refused) {
          expect(found(statements.join(";\n"), dialect)).toBeUndefined();
          return;
        }
        const [[statement, name], at] = refused;
        const before = statements.slice(0, at % (statements.length + 1));
        const prefix = before.map((text) => `${text};\n`).join("");
        const sql = prefix + [statement, ...statements.slice(before.length)].join(";\n");
        expect(found(sql, dialect)).toEqual({
          statement: name,
          line: prefix.split("\n").length,
        });
      }),
      { seed: 44, numRuns: 1000 },
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
