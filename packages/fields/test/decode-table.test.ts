// Every scalar type × modifier (required, optional, unique) × input path (JSON create, JSON
// update, form), generated from one table of per-type facts with the exact documented messages.

import { richTextSanitizer } from "@tessera/sanitizer";
import { describe, expect, it } from "vitest";
import {
  BLANK,
  type ColumnValue,
  type DecodeResult,
  decodeForm,
  decodeJsonCreate,
  decodeJsonUpdate,
  type Field,
  MUST_EXIST,
  NOT_A_DATE,
  NOT_A_DATETIME,
  NOT_A_DECIMAL,
  NOT_A_NUMBER,
  NOT_A_TIME,
  NOT_A_UUID,
  NOT_IN_LIST,
  NOT_JSON,
  parseDeclaration,
  withRichText,
} from "../src/index.js";

interface TypeFacts {
  /** Declaration without modifiers; the input key is the field's first column. */
  readonly declaration: string;
  /** A JSON value of the right type and the column value it gives. */
  readonly good: readonly [unknown, ColumnValue];
  /** Canonical text (form input, or a JSON string for an optional non-string field) and its value. */
  readonly text: readonly [string, ColumnValue];
  /** A JSON value of the wrong type and how the 400 describes it. */
  readonly wrongJson: readonly [unknown, string];
  /** What the 400 says the type expects. */
  readonly expected: string;
  /** Text the field refuses and its message (JSON 422 for string types; forms for all). */
  readonly badText?: readonly [string, string];
  /** The message for a blank required value in a form (and in JSON for string-valued types). */
  readonly blankMessage: string;
  /** Whether the JSON type is a string (so bad text is a 422 there too, not a 400). */
  readonly jsonString: boolean;
  readonly canBeUnique: boolean;
}

const TYPES: readonly TypeFacts[] = [
  {
    declaration: "x:string",
    good: ["Hello", "Hello"],
    text: ["Hello", "Hello"],
    wrongJson: [5, "integer 5"],
    expected: "a string",
    blankMessage: BLANK,
    jsonString: true,
    canBeUnique: true,
  },
  {
    declaration: "x:text",
    good: ["a\r\nb", "a\r\nb"],
    text: [" a ", " a "],
    wrongJson: [["a"], "array"],
    expected: "a string",
    blankMessage: BLANK,
    jsonString: true,
    canBeUnique: true,
  },
  {
    declaration: "x:rich_text",
    good: ["<p>Hi</p>", "<p>Hi</p>"],
    text: ['<p onclick="x">Hi</p>', "<p>Hi</p>"],
    wrongJson: [{}, "object"],
    expected: "a string",
    blankMessage: BLANK,
    jsonString: true,
    canBeUnique: false,
  },
  {
    declaration: "x:integer",
    good: [42, 42],
    text: ["-42", -42],
    wrongJson: [true, "boolean true"],
    expected: "an integer",
    badText: ["4.2", NOT_A_NUMBER],
    blankMessage: NOT_A_NUMBER,
    jsonString: false,
    canBeUnique: true,
  },
  {
    declaration: "x:float",
    good: [1.5, 1.5],
    text: ["-2.5e3", -2500],
    wrongJson: [[1.5], "array"],
    expected: "a number",
    badText: ["1,5", NOT_A_NUMBER],
    blankMessage: NOT_A_NUMBER,
    jsonString: false,
    canBeUnique: true,
  },
  {
    declaration: "x:date",
    good: ["2024-02-29", "2024-02-29"],
    text: ["2000-12-31", "2000-12-31"],
    wrongJson: [20240229, "integer 20240229"],
    expected: "a string",
    badText: ["2023-02-29", NOT_A_DATE],
    blankMessage: NOT_A_DATE,
    jsonString: true,
    canBeUnique: true,
  },
  {
    declaration: "x:datetime",
    good: ["2024-02-29T13:05", "2024-02-29T13:05"],
    text: ["2024-02-29 13:05:09", "2024-02-29 13:05:09"],
    wrongJson: [false, "boolean false"],
    expected: "a string",
    badText: ["2024-02-29", NOT_A_DATETIME],
    blankMessage: NOT_A_DATETIME,
    jsonString: true,
    canBeUnique: true,
  },
  {
    declaration: "x:time",
    good: ["23:59:59", "23:59:59"],
    text: ["00:00", "00:00"],
    wrongJson: [1200, "integer 1200"],
    expected: "a string",
    badText: ["24:00", NOT_A_TIME],
    blankMessage: NOT_A_TIME,
    jsonString: true,
    canBeUnique: true,
  },
  {
    declaration: "x:decimal",
    good: ["-12.50", "-12.50"],
    text: ["+0.001", "+0.001"],
    wrongJson: [12.5, "floating point 12.5"],
    expected: "a string",
    badText: ["1e5", NOT_A_DECIMAL],
    blankMessage: NOT_A_DECIMAL,
    jsonString: true,
    canBeUnique: true,
  },
  {
    declaration: "x:uuid",
    good: ["0F8FAD5B-D9CB-469F-A165-70867728950E", "0F8FAD5B-D9CB-469F-A165-70867728950E"],
    text: ["0f8fad5b-d9cb-469f-a165-70867728950e", "0f8fad5b-d9cb-469f-a165-70867728950e"],
    wrongJson: [7, "integer 7"],
    expected: "a string",
    badText: ["0f8fad5bd9cb469fa16570867728950e", NOT_A_UUID],
    blankMessage: NOT_A_UUID,
    jsonString: true,
    canBeUnique: true,
  },
  {
    declaration: "x:references",
    good: [7, 7],
    text: ["7", 7],
    wrongJson: [true, "boolean true"],
    expected: "an integer",
    badText: ["seven", NOT_A_NUMBER],
    blankMessage: MUST_EXIST,
    jsonString: false,
    canBeUnique: true,
  },
  {
    declaration: "x:json",
    good: [{ a: [1, 2] }, '{"a":[1,2]}'],
    text: ['{ "a": [1, 2] }', '{"a":[1,2]}'],
    wrongJson: [null, "null"],
    expected: "a JSON value other than null",
    badText: ["{", NOT_JSON],
    blankMessage: NOT_JSON,
    jsonString: false,
    canBeUnique: false,
  },
  {
    declaration: "x:enum:draft,published",
    good: ["published", "published"],
    text: ["draft", "draft"],
    wrongJson: [1, "integer 1"],
    expected: "a string",
    badText: ["archived", NOT_IN_LIST],
    blankMessage: NOT_IN_LIST,
    jsonString: true,
    canBeUnique: false,
  },
];

type Expected =
  | { readonly values: Record<string, ColumnValue> }
  | { readonly status: 400; readonly reason: string }
  | { readonly status: 422; readonly fields: Record<string, string[]> };

interface Case {
  readonly name: string;
  readonly declaration: string;
  readonly path: "create" | "update" | "form create" | "form update";
  readonly input: Record<string, unknown>;
  readonly expected: Expected;
}

function field(declaration: string): Field {
  const parsed = parseDeclaration(declaration);
  if (!parsed.ok) throw new Error(parsed.reason);
  return withRichText([parsed.value], richTextSanitizer)[0]!;
}

function casesFor(facts: TypeFacts, modifiers: "" | "?" | "^" | "?^"): Case[] {
  const declaration = `${facts.declaration}${modifiers}`;
  const key = field(declaration).columns[0]!;
  const optional = modifiers.includes("?");
  const values = (value: ColumnValue) => ({ values: { [key]: value } });
  const refused = (message: string) => ({ status: 422 as const, fields: { [key]: [message] } });
  const malformed = (reason: string) => ({ status: 400 as const, reason: `${key}: ${reason}` });
  const cases: Case[] = [];
  const add = (
    name: string,
    path: Case["path"],
    input: Record<string, unknown>,
    expected: Expected,
  ) => cases.push({ name: `${declaration} ${path}: ${name}`, declaration, path, input, expected });

  const isJson = facts.declaration === "x:json";
  const isEnum = facts.declaration.startsWith("x:enum");
  // An enum value outside the list is a 400 in JSON (docs/fields.md), a 422 in forms.
  const unknownVariant = (value: string) =>
    malformed(`unknown variant \`${value}\`, expected one of \`draft\`, \`published\``);
  const [goodJson, goodValue] = facts.good;
  const [text, textValue] = facts.text;
  const [wrong, wrongDescription] = facts.wrongJson;

  // JSON create
  add("a value of the right type", "create", { [key]: goodJson }, values(goodValue));
  // json takes every JSON value; only null, and only when required, has the wrong type.
  if (!(isJson && optional)) {
    add(
      "a value of the wrong JSON type",
      "create",
      { [key]: wrong },
      malformed(`invalid type: ${wrongDescription}, expected ${facts.expected}`),
    );
  }
  if (optional) {
    add("missing", "create", {}, values(null));
    add("null", "create", { [key]: null }, values(null));
    if (isJson)
      add("a blank JSON string stays a string", "create", { [key]: "  " }, values('"  "'));
    else add("blank", "create", { [key]: " \t" }, values(null));
    if (!facts.jsonString && facts.declaration !== "x:json") {
      add("a string that parses", "create", { [key]: text }, values(textValue));
      add(
        "a string that does not parse",
        "create",
        { [key]: "x1" },
        malformed(`invalid value: string "x1", expected ${facts.expected}`),
      );
    }
  } else {
    add("missing", "create", {}, { status: 400, reason: `missing field \`${key}\`` });
    add(
      "null",
      "create",
      { [key]: null },
      malformed(`invalid type: null, expected ${facts.expected}`),
    );
    if (facts.jsonString) {
      add(
        "blank",
        "create",
        { [key]: "  " },
        isEnum ? unknownVariant("  ") : refused(facts.blankMessage),
      );
    }
    if (!facts.jsonString && facts.declaration !== "x:json") {
      add(
        "a numeric string",
        "create",
        { [key]: text },
        malformed(`invalid type: string ${JSON.stringify(text)}, expected ${facts.expected}`),
      );
    }
  }
  if (facts.jsonString && facts.badText) {
    const [badText, message] = facts.badText;
    add(
      "text the type refuses",
      "create",
      { [key]: badText },
      isEnum ? unknownVariant(badText) : refused(message),
    );
  }

  // JSON update
  add("missing keeps the value", "update", {}, { values: {} });
  add("a new value", "update", { [key]: goodJson }, values(goodValue));
  if (optional) {
    add("null clears", "update", { [key]: null }, values(null));
    if (facts.declaration !== "x:json") add("blank clears", "update", { [key]: "" }, values(null));
  } else {
    add(
      "null is refused",
      "update",
      { [key]: null },
      malformed(`invalid type: null, expected ${facts.expected}`),
    );
  }

  // Forms
  add("canonical text", "form create", { [key]: text }, values(textValue));
  add(
    "blank",
    "form create",
    { [key]: "  " },
    optional ? values(null) : refused(facts.blankMessage),
  );
  add(
    "missing on create reads as blank",
    "form create",
    {},
    optional ? values(null) : refused(facts.blankMessage),
  );
  add("missing on update keeps the value", "form update", {}, { values: {} });
  if (facts.badText)
    add(
      "text the type refuses",
      "form create",
      { [key]: facts.badText[0] },
      refused(facts.badText[1]),
    );
  return cases;
}

const MODIFIERS = ["", "?", "^", "?^"] as const;
const CASES = TYPES.flatMap((facts) =>
  MODIFIERS.filter((m) => facts.canBeUnique || !m.includes("^")).flatMap((m) => casesFor(facts, m)),
);

function run(testCase: Case): DecodeResult {
  const fields = [field(testCase.declaration)];
  switch (testCase.path) {
    case "create":
      return decodeJsonCreate(fields, testCase.input);
    case "update":
      return decodeJsonUpdate(fields, testCase.input);
    default: {
      const form = new URLSearchParams();
      for (const [key, value] of Object.entries(testCase.input)) form.append(key, String(value));
      const mode = testCase.path === "form create" ? "create" : "update";
      const result = decodeForm(fields, form, { mode });
      return result.ok ? { ok: true, value: { values: result.value.values } } : result;
    }
  }
}

function outcome(result: DecodeResult): Expected {
  if (result.ok) return { values: { ...result.value.values } };
  if (result.status === 400) return { status: 400, reason: result.reason };
  return { status: 422, fields: result.fields };
}

describe("decoding, per type × modifier × path", () => {
  it("has cases for every type and path", () => {
    expect(new Set(CASES.map((c) => c.path)).size).toBe(4);
    expect(CASES.length).toBeGreaterThan(400);
  });

  it.each(CASES)("$name", (testCase) => {
    expect(outcome(run(testCase))).toEqual(testCase.expected);
  });
});
