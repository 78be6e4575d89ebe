import { compareContenders } from "../../../bench/compare.js";
import { formatTimestamp, parseTimestamp } from "../src/index.js";

// Stores read two or three timestamps per row, so a bearer check or a tracked session's read
// parses them on every request. The baselines are the definitions through toISOString and
// Date.parse that these replaced (the tests check that both give the same answers).
const texts = ["2026-11-25 19:52:32", "2024-02-29 23:59:07", "1999-12-31 00:00:00"];
const times = texts.map((text) => Date.parse(`${text.replace(" ", "T")}Z`));
let sink = 0;

const parse = await compareContenders("Read a stored timestamp", [
  {
    name: "pattern, then Date.parse of the ISO form (before)",
    run: () => {
      for (const text of texts) {
        if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) {
          sink += Date.parse(`${text.replace(" ", "T")}Z`);
        }
      }
    },
  },
  {
    name: "@tessera/core parseTimestamp",
    run: () => {
      for (const text of texts) sink += parseTimestamp(text);
    },
  },
]);

const format = await compareContenders("Write a timestamp", [
  {
    name: "toISOString, slice and replace (before)",
    run: () => {
      for (const time of times) {
        sink += new Date(time).toISOString().slice(0, 19).replace("T", " ").length;
      }
    },
  },
  {
    name: "@tessera/core formatTimestamp",
    run: () => {
      for (const time of times) sink += formatTimestamp(time).length;
    },
  },
]);

if (Number.isNaN(sink)) throw new Error("a timestamp did not parse");
process.stdout.write(`## @tessera/core\n\n${parse.markdown}\n${format.markdown}`);
