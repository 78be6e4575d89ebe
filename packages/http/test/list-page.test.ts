import { describe, expect, it } from "vitest";
import { LIMIT_MESSAGE, OFFSET_MESSAGE, readListPage } from "../src/index.js";

const page = (query: string) => readListPage(new URL(`https://app.example/api/things${query}`));

describe("readListPage", () => {
  it("reads plain decimal limit and offset, 50 and 0 when absent", () => {
    expect(page("")).toEqual({ ok: true, value: { limit: 50, offset: 0 } });
    expect(page("?limit=1&offset=0")).toEqual({ ok: true, value: { limit: 1, offset: 0 } });
    expect(page("?limit=100&offset=9007199254740991")).toEqual({
      ok: true,
      value: { limit: 100, offset: 9007199254740991 },
    });
  });

  it.each(["0", "101", "", "-1", "+5", "1.5", "100.0", "1e1", "0x10", " 5", "5 ", "Infinity"])(
    "refuses limit=%j",
    (limit) => {
      expect(page(`?limit=${encodeURIComponent(limit)}`)).toEqual({
        ok: false,
        reason: LIMIT_MESSAGE,
      });
    },
  );

  it.each(["", "-1", "1.5", "1e20", "0x10", "9007199254740992", "99999999999999999", "0.0"])(
    "refuses offset=%j",
    (offset) => {
      expect(page(`?offset=${encodeURIComponent(offset)}`)).toEqual({
        ok: false,
        reason: OFFSET_MESSAGE,
      });
    },
  );
});
