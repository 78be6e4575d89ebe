// Body and query arbitraries of the fuzzing suite: JSON, urlencoded and multipart bodies built
// around the keys a route reads, hostile at every level, and query strings the same way.
import fc, { type Arbitrary } from "fast-check";
import type { FuzzBody, MultipartPart } from "./fuzz-case.js";
import { contentTypeHeaders, type Header } from "./fuzz-headers.js";
import {
  hostileContentType,
  hostileFormValue,
  hostileJson,
  hostileKey,
  hostileText,
  jsonString,
  malformedJson,
  nonUtf8Bytes,
  percentEncode,
} from "./hostile-input.js";
import { mostly, seldomOtherwise } from "./weighted-choice.js";

/** Headers and the body that goes with them. */
export interface Payload {
  readonly headers: readonly Header[];
  readonly body?: FuzzBody;
}

const MiB = 1024 * 1024;

/** Values by key; any key may also get a hostile value instead. */
export type ValuesByKey = Readonly<Record<string, Arbitrary<string>>>;

/**
 * Some of `values`' keys (the `required` ones always, half the time), each with a value of its
 * own or, in half the cases, sometimes a hostile one; then now and then extra entries: hostile
 * keys, or a key repeated.
 */
function entries(
  values: ValuesByKey,
  hostileValue: Arbitrary<string>,
  extraKey: Arbitrary<string>,
  required: readonly string[] = [],
): Arbitrary<[string, string][]> {
  const keys = Object.keys(values);
  const typed = fc.record(values, { requiredKeys: required.filter((key) => key in values) });
  const mixed = fc.record(
    Object.fromEntries(keys.map((key) => [key, mostly(values[key]!, hostileValue)])),
    { requiredKeys: [] },
  );
  const extraKeys = keys.length > 0 ? fc.oneof(extraKey, fc.constantFrom(...keys)) : extraKey;
  const extras = fc.array(fc.tuple(extraKeys, hostileValue), { minLength: 1, maxLength: 2 });
  return fc
    .tuple(fc.oneof(typed, mixed), seldomOtherwise(fc.constant<[string, string][]>([]), extras))
    .map(([record, more]) => [
      ...keys
        .filter((key) => key in record)
        .map((key): [string, string] => [key, (record as Record<string, string>)[key]!]),
      ...more,
    ]);
}

const text = (value: string): FuzzBody => ({ kind: "text", text: value });

/** A JSON body just over the 4 MiB a JSON route reads. */
const oversizedJson = fc.constant(`{"title":"${"t".repeat(4 * MiB)}"}`);

/** A JSON object text of some of `values`' keys (JSON texts by key), and a few hostile entries. */
export function jsonObjectText(
  values: ValuesByKey,
  required: readonly string[] = [],
): Arbitrary<string> {
  return entries(values, hostileJson, hostileKey, required).map(
    (pairs) => `{${pairs.map(([key, value]) => `${jsonString(key)}:${value}`).join(",")}}`,
  );
}

/**
 * A JSON body around `values` (JSON texts by key): mostly an object of some of those keys, at
 * times any JSON, malformed text, bytes that are not UTF-8, no body, or more than the route
 * reads.
 */
export function jsonPayload(
  values: ValuesByKey,
  required: readonly string[] = [],
): Arbitrary<Payload> {
  const body: Arbitrary<FuzzBody | undefined> = fc.oneof(
    { weight: 24, arbitrary: jsonObjectText(values, required).map(text) },
    { weight: 1, arbitrary: hostileJson.map(text) },
    { weight: 1, arbitrary: malformedJson.map(text) },
    { weight: 1, arbitrary: nonUtf8Bytes.map((bytes): FuzzBody => ({ kind: "bytes", bytes })) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: oversizedJson.map(text) },
  );
  return fc
    .tuple(contentTypeHeaders("application/json"), body)
    .map(([headers, payload]) =>
      payload === undefined ? { headers } : { headers, body: payload },
    );
}

/** Form keys as they go on the wire: nesting, prototype names, broken escapes. */
const hostileFormKey = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "a%5Bb%5D",
    "a[]",
    "",
    "%",
    "%00",
    "title%00",
    "_method",
    `a${"[a]".repeat(1000)}`,
  ),
  hostileText.filter((key) => key.length < 50).map(percentEncode),
);

/** `values` with their keys and values percent-encoded, as a form or query carries them. */
function encodedValues(values: ValuesByKey): ValuesByKey {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [percentEncode(key), value.map(percentEncode)]),
  );
}

/** An urlencoded form just over the 4 MiB a form route reads. */
const oversizedForm = fc.constant(`title=${"t".repeat(4 * MiB)}`);

/**
 * An urlencoded form around `values` (texts by key, percent-encoded here): mostly some of the
 * keys, now and then a broken or oversized form, or bytes that are not UTF-8.
 */
export function formPayload(
  values: ValuesByKey,
  required: readonly string[] = [],
): Arbitrary<Payload> {
  const form = entries(encodedValues(values), hostileFormValue, hostileFormKey, required).map(
    (pairs) => pairs.map(([key, value]) => `${key}=${value}`).join("&"),
  );
  const body: Arbitrary<FuzzBody> = fc.oneof(
    { weight: 24, arbitrary: form.map(text) },
    { weight: 1, arbitrary: fc.constantFrom("&&&", "=", "a", "%", "a=1&a=2&a=3").map(text) },
    { weight: 1, arbitrary: nonUtf8Bytes.map((bytes): FuzzBody => ({ kind: "bytes", bytes })) },
    { weight: 1, arbitrary: oversizedForm.map(text) },
  );
  return fc
    .tuple(contentTypeHeaders("application/x-www-form-urlencoded"), body)
    .map(([headers, payload]) => ({ headers, body: payload }));
}

/** File names that mean something to a file system, a header or a browser. */
const hostileFilename = mostly(
  fc.constant("a.txt"),
  fc.constantFrom(
    "",
    "../../../../tmp/evil.txt",
    "..\\..\\evil.txt",
    "a\u0000.png",
    "\u202egnp.exe",
    'a"b.txt',
    "a;b=c.txt",
    "CON",
    ".htaccess",
    "ファイル.txt",
    "e\u0301.txt",
    `${"a".repeat(5000)}.txt`,
    "%2e%2e%2fevil.txt",
  ),
);

const hostilePartType = mostly(
  fc.constant("text/plain"),
  fc.constantFrom(
    "image/png",
    "application/pdf",
    "text/html",
    "image/svg+xml",
    "application/x-msdownload",
    "",
    "IMAGE/PNG",
    "image/png; charset=utf-8",
    "text/plain\u00ff",
  ),
);

/** Bytes of a file: empty, a little, or one byte over the 10 MB an attachment may be. */
const fileContent: Arbitrary<string | Uint8Array> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom("file", "", "\u0000\u0001", "<script>alert(1)</script>"),
  },
  { weight: 4, arbitrary: fc.uint8Array({ maxLength: 64 }) },
  { weight: 1, arbitrary: fc.constant(new Uint8Array(10 * 1024 * 1024 + 1)) },
);

const boundaries = mostly(
  fc.constant("fuzz-boundary"),
  fc.constantFrom("a", "x".repeat(71), "a b", '"quoted"', "-"),
);

/**
 * A multipart body with files in `fileNames` parts and text `values`: part names, file names,
 * types and sizes hostile, the closing boundary sometimes missing or the body cut short.
 */
export function multipartPayload(
  fileNames: readonly string[],
  values: ValuesByKey,
  required: readonly string[] = [],
): Arbitrary<Payload> {
  const names = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...fileNames) },
    { weight: 1, arbitrary: fc.constantFrom("", "__proto__", "file[]", "FILE", "a\u0000") },
  );
  const filePart: Arbitrary<MultipartPart> = fc
    .tuple(names, hostileFilename, fc.option(hostilePartType, { nil: undefined }), fileContent)
    .map(([name, filename, contentType, content]) => ({
      name,
      filename,
      ...(contentType === undefined ? {} : { contentType }),
      content,
    }));
  const textParts = entries(values, hostileText, hostileKey, required).map((pairs) =>
    pairs.map(([name, content]): MultipartPart => ({ name, content })),
  );
  return fc
    .tuple(
      fc.array(filePart, { maxLength: 3 }),
      textParts,
      boundaries,
      mostly(fc.constant("closed" as const), fc.constantFrom("open" as const, "cut" as const)),
      seldomOtherwise(fc.constant(undefined), hostileContentType),
    )
    .map(([files, texts, boundary, ending, contentType]) => ({
      headers: [["content-type", contentType ?? `multipart/form-data; boundary=${boundary}`]],
      body: { kind: "multipart", boundary, parts: [...texts, ...files], ending },
    }));
}

/** A query value that keeps the request line within the 16 KiB Node reads of a request head. */
const queryValue = hostileFormValue.filter((value) => value.length <= 2000);

/** A query string of some of `values`' keys, hostile values, repeated keys. */
export function queryOf(values: ValuesByKey): Arbitrary<string> {
  return entries(encodedValues(values), queryValue, hostileFormKey).map((pairs) =>
    pairs.length === 0 ? "" : `?${pairs.map(([key, value]) => `${key}=${value}`).join("&")}`,
  );
}
