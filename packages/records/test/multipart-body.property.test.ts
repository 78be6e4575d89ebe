// The streaming multipart reader against generated bodies: whatever the parts, the boundary and
// where the chunks are cut, it gives back what was sent; whatever the bytes, it answers a
// refusal it names, never a throw.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readMultipartBody } from "../src/multipart-body.js";
import { isValidBoundary } from "../src/multipart-parser.js";

const encoder = new TextEncoder();

type Part =
  | { readonly name: string; readonly text: string }
  | {
      readonly name: string;
      readonly filename: string;
      readonly type: string;
      readonly bytes: Uint8Array;
    };

// RFC 2046's boundary characters, space excepted at the end.
const BOUNDARY_CHARACTERS = "0123456789ABCDEFabcdefXYZxyz'()+_,-./:=? ";
const boundary = fc
  .string({
    unit: fc.constantFrom(...BOUNDARY_CHARACTERS),
    minLength: 1,
    maxLength: 70,
  })
  .filter(isValidBoundary);

/** Bytes heavy with what a parser might mistake for a delimiter. */
const trickyBytes = fc
  .array(
    fc.oneof(
      fc.uint8Array({ maxLength: 40 }),
      fc.constantFrom("\r", "\n", "\r\n", "\r\n-", "\r\n--", "--", "\r\n\r\n").map(encode),
    ),
    { maxLength: 12 },
  )
  .map((pieces) => joined(pieces));
// Line breaks alone, `"`, `%` and non-ASCII: what HTML's serialization escapes or keeps.
const name = fc.string({
  unit: fc.oneof(
    fc.constantFrom('"', "\r", "\n", "%", "é", "\\", ";", "="),
    fc.string({ minLength: 1, maxLength: 1 }),
  ),
  maxLength: 12,
});
const part: fc.Arbitrary<Part> = fc.oneof(
  fc.record({ name, text: fc.string({ unit: "binary", maxLength: 60 }) }),
  fc.record({
    name,
    filename: name,
    type: fc.constantFrom("image/png", "application/pdf", "text/plain"),
    bytes: trickyBytes,
  }),
);

function encode(text: string): Uint8Array {
  return encoder.encode(text);
}

function joined(pieces: readonly Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(pieces.reduce((total, piece) => total + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    bytes.set(piece, offset);
    offset += piece.length;
  }
  return bytes;
}

/** A name as a browser writes it into `Content-Disposition` (HTML's form serialization). */
function escapedName(value: string): string {
  return value.replace(/\r\n|\r|\n/g, "%0D%0A").replace(/"/g, "%22");
}

/** The body a browser would send for `parts`, with a preamble and an epilogue around it. */
function serialize(parts: readonly Part[], boundary: string, preamble: string): Uint8Array {
  const pieces: Uint8Array[] = [encode(preamble === "" ? "" : `${preamble}\r\n`)];
  for (const each of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escapedName(each.name)}"`;
    if ("filename" in each) {
      head += `; filename="${escapedName(each.filename)}"\r\nContent-Type: ${each.type}`;
    }
    pieces.push(encode(`${head}\r\n\r\n`));
    pieces.push("bytes" in each ? each.bytes : encode(each.text));
    pieces.push(encode("\r\n"));
  }
  pieces.push(encode(`--${boundary}--\r\nan epilogue, ignored`));
  return joined(pieces);
}

/**
 * What a reader should give back: escaped names come back as browsers' parsers read them, which
 * undo `%0D`, `%0A` (either case) and `%22` whether the sender escaped them or the name held
 * them: a name typed as `%0a` reads back as a line break.
 */
function expected(parts: readonly Part[]) {
  const unescaped = (value: string) =>
    escapedName(value).replace(/%0D|%0A|%22/gi, (encoded) =>
      String.fromCharCode(Number.parseInt(encoded.slice(1), 16)),
    );
  return parts.map((each) =>
    "bytes" in each
      ? [unescaped(each.name), unescaped(each.filename), each.type, [...each.bytes]]
      : // A lone surrogate has no UTF-8: it is sent, and so read back, as U+FFFD.
        [unescaped(each.name), new TextDecoder().decode(encode(each.text))],
  );
}

async function entriesOf(form: FormData) {
  const entries: unknown[] = [];
  for (const [key, value] of form) {
    entries.push(
      typeof value === "string"
        ? [key, value]
        : [key, value.name, value.type, [...new Uint8Array(await value.arrayBuffer())]],
    );
  }
  return entries;
}

/** A request whose body arrives in chunks cut at `cuts` (positions, any order). */
function chunkedRequest(bytes: Uint8Array, cuts: readonly number[], boundary: string) {
  const positions = [
    ...new Set([0, ...cuts.map((cut) => cut % (bytes.length + 1)), bytes.length]),
  ].sort((a, b) => a - b);
  const chunks = positions.slice(1).map((end, index) => bytes.slice(positions[index], end));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  });
  return new Request("https://app.example/upload", {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary="${boundary}"` },
    body,
    duplex: "half",
  } as RequestInit);
}

describe("readMultipartBody", () => {
  it("gives back every part sent, whatever the boundary and wherever the chunks are cut", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(part, { maxLength: 8 }),
        boundary,
        fc.constantFrom("", "a preamble"),
        fc.array(fc.nat(), { maxLength: 20 }),
        async (parts, boundary, preamble, cuts) => {
          const bytes = serialize(parts, boundary, preamble);
          // A part holding the delimiter itself cannot be framed: RFC 2046 leaves it to the sender.
          fc.pre(!parts.some((each) => contains(each, `\r\n--${boundary}`)));
          const read = await readMultipartBody(chunkedRequest(bytes, cuts, boundary), 1 << 20);
          expect(read.ok).toBe(true);
          if (read.ok) expect(await entriesOf(read.value)).toEqual(expected(parts));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("reads what the runtime's own FormData serializer writes, cut anywhere", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(part, { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        async (parts, cuts) => {
          const form = new FormData();
          for (const each of parts) {
            if ("bytes" in each) {
              form.append(each.name, new File([each.bytes as BlobPart], each.filename, each));
            } else {
              form.append(each.name, each.text);
            }
          }
          const sent = new Request("https://app.example/", { method: "POST", body: form });
          const type = sent.headers.get("content-type")!;
          const bytes = new Uint8Array(await sent.arrayBuffer());
          const boundary = type.slice(type.indexOf("boundary=") + "boundary=".length);
          const read = await readMultipartBody(chunkedRequest(bytes, cuts, boundary), 1 << 20);
          expect(read.ok).toBe(true);
          if (read.ok) {
            // The runtime parses its own bytes back into what the reader must also give.
            const parsedByRuntime = await new Response(bytes, {
              headers: { "content-type": type },
            }).formData();
            expect(await entriesOf(read.value)).toEqual(await entriesOf(parsedByRuntime));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("answers any bytes, or a valid body with bytes changed, with a form or a named refusal", async () => {
    const refusals = ["malformed", "too-many-parts", "too-many-parts-per-name", "too-large"];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          fc
            .tuple(
              fc.array(part, { minLength: 1, maxLength: 4 }),
              fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
            )
            .map(([parts, changes]) => {
              const bytes = serialize(parts, "XyZ", "");
              for (const [at, value] of changes) bytes[at % bytes.length] = value;
              return bytes;
            }),
        ),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (bytes, cuts) => {
          const read = await readMultipartBody(chunkedRequest(bytes, cuts, "XyZ"), 250, {
            maximumParts: 3,
            maximumPartsPerName: 2,
          });
          if (!read.ok) expect(refusals).toContain(read.reason);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

function contains(part: Part, delimiter: string): boolean {
  const text = "bytes" in part ? new TextDecoder("latin1").decode(part.bytes) : part.text;
  return text.includes(delimiter);
}
