// fast-check arbitraries of what an attacker sends on purpose: text, JSON, form values, ids,
// headers. Each list starts with its simplest member, where shrinking ends up.
import fc, { type Arbitrary } from "fast-check";

/** Characters that break naive code: NUL, lone surrogates, direction overrides, marks. */
const trickyCharacter = fc.constantFrom(
  "a",
  "\u0000",
  "\ud800",
  "\udfff",
  "\u202e",
  "\u0301",
  "\ufeff",
  "\u200b",
  "\u2028",
  "\u00a0",
  "\n",
  "\r",
  "\t",
  "\u001b",
  "<",
  ">",
  '"',
  "'",
  "\\",
  "&",
  "%",
  "+",
  "=",
  ";",
  "/",
  "İ",
  "ß",
  "ﬁ",
  "𝕏",
  "👩‍👩‍👧",
);

/** Values that mean something to some layer: keywords, markup, SQL, paths, prototype keys. */
const meaningfulText = fc.constantFrom(
  "",
  " ",
  " \t\n ",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "true",
  "-0",
  "0",
  "1e3",
  "-1",
  "9999999999999999",
  "9007199254740993",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  "../../../../etc/passwd",
  "%00",
  "%s%n%x",
  // A template placeholder, for any layer that would evaluate one.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal text is the point.
  "${7*7}{{7*7}}",
  "a\u0000b",
  "\u0000",
  "a\ud800b",
  "\udfff",
  "\u202egnp.exe",
  "e\u0301\u0301\u0301\u0301\u0301\u0301",
  "Z\u0364\u0354\u0367\u0311\u0313a\u0308\u0356\u032d\u0308\u0307",
  "\ufeffBOM",
  "\u2028\u2029",
  "a@b",
  "A@EXAMPLE.COM",
  "\u00a0user@example.com\u00a0",
  "ＵＳＥＲ@ｅｘａｍｐｌｅ.ｃｏｍ",
  "user@example.com\u0000",
  "user@exa\u202emple.com",
  "@",
  "a@",
  "2024-02-30",
  "24:00",
  "2024-01-01T25:00",
  "00000000-0000-0000-0000-00000000000g",
  "+1.5",
  "1,000.00",
  "0x1F",
);

/** One over the 2,000,000 bytes a text value may hold, in one- and two-byte characters. */
const oversizedText = fc.constantFrom("x".repeat(2_000_001), "é".repeat(1_000_001));

/** Any text a field may be sent: tricky characters, meaningful values, rarely a huge one. */
export const hostileText: Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: meaningfulText },
  { weight: 10, arbitrary: fc.string({ unit: trickyCharacter, maxLength: 24 }) },
  { weight: 4, arbitrary: fc.string({ unit: "binary", maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", minLength: 300, maxLength: 3000 }) },
  { weight: 1, arbitrary: fc.constant("\u0000".repeat(1000)) },
  { weight: 1, arbitrary: oversizedText },
);

/** Number tokens JSON allows but JavaScript or a column cannot hold as sent. */
const hostileNumberToken = fc.constantFrom(
  "0",
  "-0",
  "1e400",
  "-1e400",
  "1e-400",
  "9007199254740992",
  "9007199254740993",
  "-9007199254740993",
  "123456789012345678901234567890",
  "1e3",
  "1E+2",
  "0.1",
  "1.5",
  "-1",
  "2147483648",
  "1.7976931348623157e308",
);

/** JSON.stringify, but lone surrogates and NUL stay in (as escapes, which JSON allows). */
export const jsonString = (text: string): string => JSON.stringify(text);

/** Nesting far past any sane limit, in arrays or objects. */
export const deeplyNested: Arbitrary<string> = fc
  .tuple(fc.constantFrom(129, 1_000, 10_000, 100_000), fc.boolean())
  .map(([depth, arrays]) =>
    arrays
      ? `${"[".repeat(depth)}${"]".repeat(depth)}`
      : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
  );

/** Values that are large in another way than length: many items, many digits, many escapes. */
const wideJson = fc.constantFrom(
  `[${"1,".repeat(100_000)}1]`,
  "9".repeat(10_000),
  `0.${"0".repeat(10_000)}1`,
  `"${"\\u0000".repeat(50_000)}"`,
  `{${Array.from({ length: 10_000 }, (_, i) => `"k${i}":${i}`).join(",")}}`,
);

/** Object keys that reach prototypes or collide with what a server sets itself. */
export const hostileKey: Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "id",
    "user_id",
    "created_at",
    "updated_at",
    "",
    "\u0000",
    "a\ud800",
  ),
  hostileText.filter((text) => text.length < 100),
);

/** JSON text of any value, hostile at every level: strings, numbers, keys, nesting. */
export const hostileJson: Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("null", "true", "false"),
    hostileNumberToken,
    hostileText.map(jsonString),
    fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
    fc
      .array(fc.tuple(hostileKey, tie("value")), { maxLength: 4 })
      .map((entries) => `{${entries.map(([k, v]) => `${jsonString(k)}:${v}`).join(",")}}`),
    deeplyNested,
    wideJson,
  ),
})).value;

/** Texts that are not JSON at all, or JSON with something wrong around it. */
export const malformedJson: Arbitrary<string> = fc.constantFrom(
  "",
  " ",
  "{",
  "}",
  '{"title":',
  "[1,]",
  "{'a':1}",
  "NaN",
  "undefined",
  "\u0000",
  '{"a":1}garbage',
  '{"a":1}{"a":2}',
  "\ufeff{}",
  "nul",
  '"unterminated',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"a":"\u0000"}',
  '{"a":01}',
  '{"a":.5}',
  '{"a":+1}',
  '{"a":Infinity}',
  "// comment\n{}",
);

/** Raw body bytes that are not UTF-8, or not text at all. */
export const nonUtf8Bytes: Arbitrary<Uint8Array> = fc.oneof(
  fc.constantFrom(
    Uint8Array.of(0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00),
    Uint8Array.of(0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d),
    Uint8Array.of(0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d),
  ),
  fc.uint8Array({ maxLength: 64 }),
);

/** UTF-8 of `text`, percent-encoded (lone surrogates become U+FFFD first, as a browser does). */
export function percentEncode(text: string): string {
  return encodeURIComponent(new TextDecoder().decode(new TextEncoder().encode(text)));
}

/** A form value as it appears in an urlencoded body or a query: encoded, or broken encodings. */
export const hostileFormValue: Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: hostileText.map(percentEncode) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "%",
      "%ZZ",
      "%E",
      "%ED%A0%80",
      "%C0%AF",
      "%FF%FE",
      "+",
      "%2B",
      "a&b=c",
      "%00",
      "%0D%0A",
      "=",
      "&&&",
    ),
  },
);

/** Ids and tokens in a path segment: out of range, signed, exponent, encoded, empty-ish, long. */
export const hostileSegment: Arbitrary<string> = fc
  .oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        "0",
        "-1",
        "1e3",
        "01",
        "1.0",
        "9999999999999999",
        "9007199254740993",
        "99999999999999999999999999",
        "%00",
        "1%00",
        "%ZZ",
        "%",
        "%2F",
        "%2Fetc%2Fpasswd",
        "%5C",
        "%0A",
        "%E2%80%AE",
        "%ED%A0%80",
        "__proto__",
        "constructor",
        "new",
        "NaN",
        "Infinity",
        "0x10",
        "1;2",
        "+1",
        "%20",
        "1%20",
        "null",
      ),
    },
    { weight: 2, arbitrary: hostileText.filter((text) => text.length <= 100).map(percentEncode) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom("9", "a", "%41"), fc.constantFrom(500, 2_000))
        .map(([unit, times]) => unit.repeat(times)),
    },
  )
  .filter(
    // Dot segments and emptiness change which route the URL reaches: the catch-all group has them.
    (segment) => segment !== "" && !/^(\.|%2e)+$/i.test(segment),
  );

/** `Content-Type` values a JSON or form route may be sent instead of the right one. */
export const hostileContentType: Arbitrary<string> = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "application/json;;;",
  "application/json; boundary=x",
  "application/vnd.api+json",
  "application/jsonp",
  "text/json",
  "text/plain",
  "text/html",
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded; charset=iso-8859-1",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "multipart/form-data; boundary=zzz",
  "*/*",
  "",
  "; charset=utf-8",
  "application/json, text/html",
  "\u00e9/\u00e9",
);

/** Extra headers: repeats of the content type, odd accepts, forged addresses, junk cookies. */
export const hostileHeaders: Arbitrary<(readonly [string, string])[]> = fc.array(
  fc.oneof(
    hostileContentType.map((value) => ["content-type", value] as const),
    fc
      .constantFrom(
        "application/json",
        "text/html",
        "*/*",
        "application/graphql-response+json",
        "application/json;q=0, text/html;q=0",
        "",
        "\u00ff",
      )
      .map((value) => ["accept", value] as const),
    fc
      .constantFrom("utf-8", "utf-16", "iso-8859-1", "x-unknown", "")
      .map((value) => ["accept-charset", value] as const),
    fc
      .constantFrom("fr", "*", "zz-ZZ;q=abc", "en-US,en;q=0.9", "\u00e9")
      .map((value) => ["accept-language", value] as const),
    fc
      .constantFrom(
        "_tessera_session=",
        "_tessera_session=garbage",
        "_tessera_session=a.b.c",
        "_tessera_session=%00",
        "a=b; a=c; ;;",
        "=",
        `_tessera_session=${"A".repeat(4000)}`,
      )
      .map((value) => ["cookie", value] as const),
    fc
      .constantFrom("gzip", "br", "identity", "x-bogus", "gzip, gzip")
      .map((value) => ["content-encoding", value] as const),
    fc.constantFrom("websocket", "h2c", "").map((value) => ["upgrade", value] as const),
    fc
      .constantFrom("1", "-1", "abc", "99999999999999999999")
      .map((value) => ["if-none-match", value] as const),
    fc
      .constantFrom(
        "bytes=0-0",
        "bytes=-1",
        "bytes=99999999999-",
        "bytes=1-0",
        "bytes=0-1,2-3",
        "pages=1",
      )
      .map((value) => ["range", value] as const),
  ),
  { maxLength: 3 },
);
