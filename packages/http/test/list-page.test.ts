import { describe, expect, it } from "vitest";
import {
  AFTER_MESSAGE,
  LIMIT_MESSAGE,
  type ListPage,
  loadListPage,
  OFFSET_AND_AFTER_MESSAGE,
  OFFSET_MESSAGE,
  readListPage,
} from "../src/index.js";

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

  it("reads after=<id> for keyset paging, with offset 0", () => {
    expect(page("?limit=10&after=42")).toEqual({
      ok: true,
      value: { limit: 10, offset: 0, after: 42 },
    });
  });

  it.each(["0", "", "-1", "1.5", "1e3", "0x10", "9007199254740992", "abc"])(
    "refuses after=%j",
    (after) => {
      expect(page(`?after=${encodeURIComponent(after)}`)).toEqual({
        ok: false,
        reason: AFTER_MESSAGE,
      });
    },
  );

  it("refuses offset and after together", () => {
    expect(page("?offset=0&after=5")).toEqual({ ok: false, reason: OFFSET_AND_AFTER_MESSAGE });
  });
});

describe("loadListPage", () => {
  const url = new URL("https://app.example/api/things?limit=2&offset=0&sort=odd");
  const rows = [{ id: 9 }, { id: 7 }, { id: 4 }, { id: 2 }];
  const newestBelow = async ({ limit, offset, after }: ListPage) =>
    rows.filter((row) => after === undefined || row.id < after).slice(offset, offset + limit);

  it("asks for one row more, shows the page, and links the next one after its last id, keeping the filters", async () => {
    const asked: ListPage[] = [];
    const page = await loadListPage(url, { limit: 2, offset: 0 }, (wanted) => {
      asked.push(wanted);
      return newestBelow(wanted);
    });
    expect(asked).toEqual([{ limit: 3, offset: 0 }]);
    expect(page).toEqual({
      rows: [{ id: 9 }, { id: 7 }],
      headers: { link: '</api/things?limit=2&after=7&sort=odd>; rel="next"' },
      next: "/api/things?limit=2&after=7&sort=odd",
    });
  });

  it("gives no link on the last page, even a full one", async () => {
    const last = await loadListPage(url, { limit: 2, offset: 0, after: 7 }, newestBelow);
    expect(last).toEqual({ rows: [{ id: 4 }, { id: 2 }], headers: {} });
    expect(await loadListPage(url, { limit: 2, offset: 0, after: 2 }, newestBelow)).toEqual({
      rows: [],
      headers: {},
    });
  });
});
