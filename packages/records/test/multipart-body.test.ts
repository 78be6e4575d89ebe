// The streaming multipart reader's bounds: parts counted as they arrive and refused before the
// rest of the body is read, the byte cap, the bodies it refuses as malformed, and the event
// loop kept turning while a large body is parsed.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_MAXIMUM_MULTIPART_PARTS,
  DEFAULT_MAXIMUM_PARTS_PER_NAME,
  MULTIPART_SLICE_BYTES,
  readMultipartBody,
} from "../src/multipart-body.js";
import { MAXIMUM_PART_HEADER_BYTES } from "../src/multipart-parser.js";

const encoder = new TextEncoder();
const BOUNDARY = "tessera-boundary";
const MiB = 1024 * 1024;

/** One text part under `name`, framed. */
const textPart = (name: string, value = "") =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const CLOSE = `--${BOUNDARY}--\r\n`;

/**
 * A request whose body is `pieces`, one chunk each, pulled only when the reader asks: `pulled`
 * says how many it asked for.
 */
function streamedRequest(
  pieces: readonly (string | Uint8Array)[],
  headers: Record<string, string> = {},
) {
  const chunks = pieces.map((piece) => (typeof piece === "string" ? encoder.encode(piece) : piece));
  const counter = { pulled: 0 };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = chunks[counter.pulled];
        counter.pulled += 1;
        if (next === undefined) controller.close();
        else controller.enqueue(next);
      },
    },
    // Nothing pulled ahead: each chunk is asked for by a read.
    { highWaterMark: 0 },
  );
  const request = new Request("https://app.example/upload", {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    body,
    duplex: "half",
  } as RequestInit);
  return { request, counter };
}

describe("the bounds on parts", () => {
  it(`take ${DEFAULT_MAXIMUM_MULTIPART_PARTS} parts, and refuse the next one at its delimiter, before reading on`, async () => {
    const names = (count: number, from = 0) =>
      Array.from({ length: count }, (_, index) => textPart(`field${from + index}`)).join("");
    const full = await readMultipartBody(
      streamedRequest([names(DEFAULT_MAXIMUM_MULTIPART_PARTS), CLOSE]).request,
      MiB,
    );
    expect(full.ok && [...full.value.keys()].length).toBe(DEFAULT_MAXIMUM_MULTIPART_PARTS);

    // 120,000 empty parts would follow; the reader never asks for them.
    const { request, counter } = streamedRequest([
      names(DEFAULT_MAXIMUM_MULTIPART_PARTS),
      `${textPart("one_too_many")}`,
      ...Array.from({ length: 120 }, (_, chunk) => names(1_000, chunk * 1_000)),
      CLOSE,
    ]);
    expect(await readMultipartBody(request, 64 * MiB)).toEqual({
      ok: false,
      reason: "too-many-parts",
    });
    expect(counter.pulled).toBe(2);
  });

  it(`take ${DEFAULT_MAXIMUM_PARTS_PER_NAME} parts of one name, and refuse the next one, before reading on`, async () => {
    const photo = (index: number) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="photos"; filename="${index}.png"\r\nContent-Type: image/png\r\n\r\npng ${index}\r\n`;
    const photos = (count: number) => Array.from({ length: count }, (_, index) => photo(index));
    const full = await readMultipartBody(
      streamedRequest([...photos(DEFAULT_MAXIMUM_PARTS_PER_NAME), textPart("title", "t"), CLOSE])
        .request,
      MiB,
    );
    expect(full.ok && full.value.getAll("photos").length).toBe(DEFAULT_MAXIMUM_PARTS_PER_NAME);

    const { request, counter } = streamedRequest([
      ...photos(DEFAULT_MAXIMUM_PARTS_PER_NAME + 1),
      ...photos(399),
      CLOSE,
    ]);
    expect(await readMultipartBody(request, 64 * MiB)).toEqual({
      ok: false,
      reason: "too-many-parts-per-name",
    });
    // The 101st part's headers are in the 101st chunk: nothing after it was pulled.
    expect(counter.pulled).toBe(DEFAULT_MAXIMUM_PARTS_PER_NAME + 1);
  });

  it("are the caller's to choose", async () => {
    const body = [textPart("a"), textPart("b"), textPart("b"), CLOSE];
    const limits = { maximumParts: 3, maximumPartsPerName: 1 };
    expect(await readMultipartBody(streamedRequest(body).request, MiB, limits)).toEqual({
      ok: false,
      reason: "too-many-parts-per-name",
    });
    const fewer = { maximumParts: 2, maximumPartsPerName: 2 };
    expect(await readMultipartBody(streamedRequest(body).request, MiB, fewer)).toEqual({
      ok: false,
      reason: "too-many-parts",
    });
  });
});

describe("the byte cap", () => {
  it("refuses a declared length over it unread", async () => {
    const { request, counter } = streamedRequest([`${textPart("a", "x".repeat(1_900))}${CLOSE}`], {
      "content-length": "2000",
    });
    expect(await readMultipartBody(request, 1_000)).toEqual({ ok: false, reason: "too-large" });
    expect(counter.pulled).toBe(0);
  });

  it("stops a streamed body at the first chunk over it", async () => {
    const { request, counter } = streamedRequest([
      textPart("a", "x".repeat(600)),
      textPart("b", "x".repeat(600)),
      textPart("c", "x".repeat(600)),
      CLOSE,
    ]);
    expect(await readMultipartBody(request, 1_000)).toEqual({ ok: false, reason: "too-large" });
    expect(counter.pulled).toBe(2);
  });

  it("does not read the epilogue once the closing delimiter is in", async () => {
    const { request, counter } = streamedRequest([
      `${textPart("a", "kept")}${CLOSE}`,
      "an epilogue nobody asked for".repeat(100),
    ]);
    const read = await readMultipartBody(request, 100);
    expect(read.ok && read.value.get("a")).toBe("kept");
    expect(counter.pulled).toBe(1);
  });
});

describe("bodies refused as malformed", () => {
  const malformed = { ok: false, reason: "malformed" };

  it.each([
    ["an empty body", [""]],
    ["no closing delimiter", [textPart("a", "x")]],
    [
      "a body cut inside a part",
      [`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\nx`],
    ],
    [
      "a part without a name",
      [`--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nx\r\n`, CLOSE],
    ],
    ["a part without headers", [`--${BOUNDARY}\r\n\r\nx\r\n`, CLOSE]],
    [
      "a disposition other than form-data",
      [`--${BOUNDARY}\r\nContent-Disposition: attachment; name="a"\r\n\r\nx\r\n`, CLOSE],
    ],
    ["a header line without a colon", [`--${BOUNDARY}\r\nnonsense\r\n\r\nx\r\n`, CLOSE]],
    ["text after a delimiter", [`--${BOUNDARY}garbage\r\n`, textPart("a"), CLOSE]],
    [
      "unreadable disposition parameters",
      [`--${BOUNDARY}\r\nContent-Disposition: form-data; name="a" junk\r\n\r\nx\r\n`, CLOSE],
    ],
  ])("%s", async (_, pieces) => {
    expect(await readMultipartBody(streamedRequest(pieces).request, MiB)).toEqual(malformed);
  });

  it("a header block over the bound, even one that never ends", async () => {
    const long = `X-Padding: ${"p".repeat(MAXIMUM_PART_HEADER_BYTES)}`;
    const ended = `--${BOUNDARY}\r\n${long}\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n`;
    expect(await readMultipartBody(streamedRequest([ended, CLOSE]).request, MiB)).toEqual(
      malformed,
    );
    const { request, counter } = streamedRequest([
      `--${BOUNDARY}\r\nX-Padding: `,
      ...Array.from({ length: 100 }, () => "p".repeat(1024)),
    ]);
    expect(await readMultipartBody(request, MiB)).toEqual(malformed);
    expect(counter.pulled).toBeLessThan(20);
  });

  it.each([
    ["no boundary", "multipart/form-data"],
    ["an empty boundary", "multipart/form-data; boundary="],
    ["a boundary of 71 characters", `multipart/form-data; boundary=${"b".repeat(71)}`],
    ["a boundary ending in a space", 'multipart/form-data; boundary="b "'],
  ])("a Content-Type with %s", async (_, type) => {
    const request = new Request("https://app.example/upload", {
      method: "POST",
      headers: { "content-type": type },
      body: `${textPart("a")}${CLOSE}`,
    });
    expect(await readMultipartBody(request, MiB)).toEqual(malformed);
  });

  it("answers another type as not multipart", async () => {
    const request = new Request("https://app.example/upload", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "a=1",
    });
    expect(await readMultipartBody(request, MiB)).toEqual({ ok: false, reason: "not-multipart" });
  });
});

describe("parsing a large body", () => {
  it("yields to the event loop between slices, even when the whole body is there at once", async () => {
    const file = new Uint8Array(8 * MULTIPART_SLICE_BYTES).fill(13); // CRs: the costliest bytes
    const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="f"; filename="f.bin"\r\n\r\n`;
    const { request } = streamedRequest([
      encoder.encode(head),
      file,
      encoder.encode(`\r\n${CLOSE}`),
    ]);
    let timersRun = 0;
    let reading = true;
    const tick = () => {
      timersRun += 1;
      if (reading) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const read = await readMultipartBody(request, 64 * MiB);
    reading = false;
    expect(read.ok && (read.value.get("f") as File).size).toBe(file.length);
    // Without the yields, the in-memory stream is read in microtasks and no timer runs.
    expect(timersRun).toBeGreaterThanOrEqual(7);
  });
});
