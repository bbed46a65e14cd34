// The zip reader bound to an archive stored under an object store key: every read is a ranged GET.
import type { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { ObjectNotFoundError, type ObjectStore } from "@quarry/object-store";
import { readZipDirectory, type ReadBytes, type ZipEntry } from "./zip-directory.ts";
import { openZipEntry } from "./zip-entry.ts";

/** `ReadBytes` over `getRange` of one key. */
export function storeRangeReader(store: ObjectStore, key: string): ReadBytes {
  return async (offset, length) => buffer(await store.getRange(key, offset, length));
}

/**
 * The archive's entries: a `stat`, one `getRange` of the tail (end record, ZIP64 records and,
 * for small archives, the directory itself) and at most one more for a larger central directory.
 * @throws ObjectNotFoundError, InvalidZipError
 */
export async function readZipDirectoryFromStore(store: ObjectStore, key: string): Promise<ZipEntry[]> {
  const info = await store.stat(key);
  if (!info) throw new ObjectNotFoundError(key);
  return readZipDirectory(storeRangeReader(store, key), info.size);
}

/** `openZipEntry` with two `getRange`s: the local header, then the entry's compressed bytes. */
export function openZipEntryFromStore(store: ObjectStore, key: string, entry: ZipEntry): Promise<Readable> {
  return openZipEntry((offset, length) => store.getRange(key, offset, length), entry);
}
