import { describe, expect, it } from "vitest";
import { numberPlaceholders } from "../src/placeholders.js";

describe("numberPlaceholders", () => {
  it("numbers each placeholder in order", () => {
    expect(numberPlaceholders("SELECT * FROM t WHERE a = ? AND b IN (?, ?)")).toBe(
      "SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)",
    );
  });

  it("leaves question marks in literals, identifiers, comments and dollar quotes", () => {
    const sql = `SELECT 'what?', 'it''s ?', "col?" FROM t -- why?
WHERE a = ? /* maybe? */ AND b = $$ ? $$ AND c = $tag$ ? $tag$ AND d = ?`;
    expect(numberPlaceholders(sql)).toBe(`SELECT 'what?', 'it''s ?', "col?" FROM t -- why?
WHERE a = $1 /* maybe? */ AND b = $$ ? $$ AND c = $tag$ ? $tag$ AND d = $2`);
  });

  it("keeps an unterminated literal as it is rather than numbering inside it", () => {
    expect(numberPlaceholders("SELECT ? , 'open ?")).toBe("SELECT $1 , 'open ?");
  });

  it("reads E'' strings with their backslash escapes, quote included", () => {
    expect(numberPlaceholders("SELECT E'it\\'s ?', e'\\\\', ?")).toBe(
      "SELECT E'it\\'s ?', e'\\\\', $1",
    );
    // A plain string keeps its backslash: the quote after it closes the literal.
    expect(numberPlaceholders("SELECT 'C:\\', ?")).toBe("SELECT 'C:\\', $1");
  });

  it("nests block comments and ends line comments at a carriage return, as PostgreSQL does", () => {
    expect(numberPlaceholders("SELECT /* a /* b */ ? */ ?, 1 -- c ?\r, ?")).toBe(
      "SELECT /* a /* b */ ? */ $1, 1 -- c ?\r, $2",
    );
  });

  it("reads dollar quotes whose tags hold digits or letters beyond ASCII, and a $ inside a name apart from them", () => {
    expect(numberPlaceholders("SELECT $t1$ ? $t1$, $é$ ? $é$, ?, a$b$ ?")).toBe(
      "SELECT $t1$ ? $t1$, $é$ ? $é$, $1, a$b$ $2",
    );
  });

  it("leaves a quoted identifier's doubled quote inside it", () => {
    expect(numberPlaceholders('SELECT "a""?" FROM t WHERE b = ?')).toBe(
      'SELECT "a""?" FROM t WHERE b = $1',
    );
  });
});
