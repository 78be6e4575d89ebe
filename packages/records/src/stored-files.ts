import { attachmentColumns, type ColumnValue, type FormFile, mediaType } from "@tessera/fields";
import { newStorageKey, type ObjectStorage } from "./object-storage.js";
import type { StoredFile } from "./record-store.js";

/** Longest filename kept, in characters. */
const MAXIMUM_FILENAME_LENGTH = 255;

/**
 * The client's filename as we keep it for display and downloads: its last path segment
 * (browsers and tools may send `C:\fakepath\a.png` or `../../a.png`), without control
 * characters, at most 255 characters; `file` when nothing is left. Never used as a key.
 */
export function safeFilename(name: string): string {
  const lastSegment = name.split(/[/\\]/).at(-1) ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
  const visible = lastSegment.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").trim();
  const kept = [...visible].slice(0, MAXIMUM_FILENAME_LENGTH).join("");
  return kept === "" || kept === "." || kept === ".." ? "file" : kept;
}

/** Stores an uploaded file under a new random key and returns its four column values. */
export async function storeFile(storage: ObjectStorage, file: FormFile): Promise<StoredFile> {
  const key = newStorageKey();
  const contentType = mediaType(file.type);
  const bytes = new Uint8Array(await file.arrayBuffer());
  await storage.put(key, bytes, contentType);
  return { key, filename: safeFilename(file.name), contentType, size: bytes.byteLength };
}

/** The four columns of attachment `name` holding `file` (or null, to remove it). */
export function attachmentValues(
  name: string,
  file: StoredFile | null,
): Record<string, ColumnValue> {
  const [key, filename, contentType, size] = attachmentColumns(name) as [
    string,
    string,
    string,
    string,
  ];
  return {
    [key]: file?.key ?? null,
    [filename]: file?.filename ?? null,
    [contentType]: file?.contentType ?? null,
    [size]: file?.size ?? null,
  };
}
