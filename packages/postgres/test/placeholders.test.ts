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
});
