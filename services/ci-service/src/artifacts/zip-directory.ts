// The central directory of a zip archive, read with random access (PKWARE APPNOTE 6.3.x, §4.3):
// one read of the archive's tail finds the end record, one more reads the directory itself, so
// listing an archive costs O(central directory) whatever the size of the files in it.
import { isUtf8 } from "node:buffer";
import { crc32 } from "./crc32.ts";

/** Reads exactly `length` bytes at `offset` (a shorter answer means the archive is truncated). */
export type ReadBytes = (offset: number, length: number) => Promise<Buffer>;

/** The archive is not a zip file, is truncated, or contradicts itself. */
export class InvalidZipError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidZipError";
  }
}

/** One central directory record. Sizes and offsets are already resolved from the ZIP64 extra field. */
export interface ZipEntry {
  /** Decoded path inside the archive; directories end with "/". See `decodeName`. */
  name: string;
  /** The name's bytes exactly as stored (GitLab's metadata and lookups work on these). */
  nameBytes: Buffer;
  comment: string;
  commentBytes: Buffer;
  /** 0 stored, 8 deflated; anything else cannot be opened. */
  method: number;
  encrypted: boolean;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
  /** Host system that wrote the entry (upper byte of "version made by"): 0 FAT, 3 Unix, 11 NTFS, 19 macOS… */
  madeBy: number;
  externalAttributes: number;
  /** Unix st_mode (type and permission bits) when made by Unix or macOS, else null. */
  mode: number | null;
  isDirectory: boolean;
  /** The DOS date/time fields read as UTC (they carry no zone), as Go's archive/zip ModTime does. */
  modified: Date;
}

export const LOCAL_HEADER_SIGNATURE = 0x04034b50;
export const LOCAL_HEADER_SIZE = 30;
const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
const CENTRAL_HEADER_SIZE = 46;
const EOCD_SIGNATURE = 0x06054b50;
const EOCD_SIZE = 22;
const MAX_COMMENT_LENGTH = 0xffff;
/** The end record plus the longest possible archive comment. */
const TAIL_SIZE = EOCD_SIZE + MAX_COMMENT_LENGTH;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_LOCATOR_SIZE = 20;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const ZIP64_EOCD_SIZE = 56;
const ZIP64_EXTRA_ID = 0x0001;
const UNICODE_PATH_EXTRA_ID = 0x7075; // Info-ZIP: UTF-8 name plus the CRC-32 of the stored name
const FLAG_ENCRYPTED = 0x0001;
const FLAG_UTF8 = 0x0800;
const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;
const HOST_FAT = 0;
const HOST_UNIX = 3;
const HOST_NTFS = 11;
const HOST_VFAT = 14;
const HOST_MACOS = 19;
export const MSDOS_READ_ONLY_ATTRIBUTE = 0x01;
export const MSDOS_DIRECTORY_ATTRIBUTE = 0x10;
const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;

/** Code page 437, bytes 0x80–0xFF (the lower half is ASCII in file names). */
const CP437_HIGH = "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0";

/**
 * Every entry of the archive of `size` bytes, in central directory order.
 * @throws InvalidZipError
 */
export async function readZipDirectory(read: ReadBytes, size: number): Promise<ZipEntry[]> {
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`invalid archive size ${size}`);
  if (size < EOCD_SIZE) throw new InvalidZipError(`not a zip archive: only ${size} bytes`);
  const tailOffset = Math.max(0, size - TAIL_SIZE);
  const tail = await readExact(read, tailOffset, size - tailOffset);
  // Records that lie inside the tail are sliced from it instead of being read again.
  const slice = (offset: number, length: number): Promise<Buffer> =>
    offset >= tailOffset && offset + length <= size
      ? Promise.resolve(tail.subarray(offset - tailOffset, offset - tailOffset + length))
      : readExact(read, offset, length);

  const eocdAt = findEndOfCentralDirectory(tail);
  if (eocdAt < 0) throw new InvalidZipError("not a zip archive: no end of central directory record");
  const end = await readEnd(tail.subarray(eocdAt), tailOffset + eocdAt, slice);
  if (end.centralDirectoryOffset + end.centralDirectorySize > end.offset) {
    throw new InvalidZipError("central directory extends past the end of central directory record");
  }
  const directory = await slice(end.centralDirectoryOffset, end.centralDirectorySize);

  const entries: ZipEntry[] = [];
  let at = 0;
  while (at + 4 <= directory.length && directory.readUInt32LE(at) === CENTRAL_HEADER_SIGNATURE) {
    const { entry, next } = parseCentralHeader(directory, at, end.centralDirectoryOffset);
    entries.push(entry);
    at = next;
  }
  // Writers without ZIP64 let the 16-bit count wrap past 65535 entries; Go and Info-ZIP accept that.
  const counted = end.zip64 ? entries.length : entries.length % (U16_MAX + 1);
  if (counted !== end.entryCount) {
    throw new InvalidZipError(`central directory holds ${entries.length} entries, its end record says ${end.entryCount}`);
  }
  return entries;
}

async function readExact(read: ReadBytes, offset: number, length: number): Promise<Buffer> {
  const bytes = await read(offset, length);
  if (bytes.length !== length) {
    throw new InvalidZipError(`truncated archive: read ${bytes.length} of ${length} bytes at offset ${offset}`);
  }
  return bytes;
}

/** Scans backwards; a signature whose comment would run past the end is comment text, not the record. */
function findEndOfCentralDirectory(tail: Buffer): number {
  for (let at = tail.length - EOCD_SIZE; at >= 0; at--) {
    if (tail.readUInt32LE(at) === EOCD_SIGNATURE && at + EOCD_SIZE + tail.readUInt16LE(at + 20) <= tail.length) {
      return at;
    }
  }
  return -1;
}

interface DirectoryEnd {
  /** Where the (ZIP64) end record starts: nothing of the directory may lie past it. */
  offset: number;
  zip64: boolean;
  entryCount: number;
  centralDirectorySize: number;
  centralDirectoryOffset: number;
}

async function readEnd(eocd: Buffer, eocdOffset: number, slice: (offset: number, length: number) => Promise<Buffer>): Promise<DirectoryEnd> {
  const end: DirectoryEnd = {
    offset: eocdOffset,
    zip64: false,
    entryCount: eocd.readUInt16LE(10),
    centralDirectorySize: eocd.readUInt32LE(12),
    centralDirectoryOffset: eocd.readUInt32LE(16),
  };
  let disk = eocd.readUInt16LE(4);
  let directoryDisk = eocd.readUInt16LE(6);
  const saturated = end.entryCount === U16_MAX || end.centralDirectorySize === U32_MAX || end.centralDirectoryOffset === U32_MAX;
  // Without a locator the saturated values are real (e.g. exactly 65535 entries), as Go also assumes.
  const locator = saturated && eocdOffset >= ZIP64_LOCATOR_SIZE ? await slice(eocdOffset - ZIP64_LOCATOR_SIZE, ZIP64_LOCATOR_SIZE) : null;
  if (locator?.readUInt32LE(0) === ZIP64_LOCATOR_SIGNATURE) {
    const recordOffset = readUInt64(locator, 8);
    if (recordOffset + ZIP64_EOCD_SIZE > eocdOffset - ZIP64_LOCATOR_SIZE) {
      throw new InvalidZipError("ZIP64 end of central directory record lies past its locator");
    }
    const record = await slice(recordOffset, ZIP64_EOCD_SIZE);
    if (record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE) {
      throw new InvalidZipError("ZIP64 end of central directory record missing");
    }
    disk = record.readUInt32LE(16);
    directoryDisk = record.readUInt32LE(20);
    end.offset = recordOffset;
    end.zip64 = true;
    end.entryCount = readUInt64(record, 32);
    end.centralDirectorySize = readUInt64(record, 40);
    end.centralDirectoryOffset = readUInt64(record, 48);
  }
  if (disk !== 0 || directoryDisk !== 0) throw new InvalidZipError("multi-disk (spanned) archives are not supported");
  return end;
}

function parseCentralHeader(directory: Buffer, at: number, directoryOffset: number): { entry: ZipEntry; next: number } {
  const where = `central directory record at offset ${directoryOffset + at}`;
  if (at + CENTRAL_HEADER_SIZE > directory.length) throw new InvalidZipError(`${where} is truncated`);
  const madeBy = directory.readUInt8(at + 5);
  const flags = directory.readUInt16LE(at + 8);
  const nameStart = at + CENTRAL_HEADER_SIZE;
  const extraStart = nameStart + directory.readUInt16LE(at + 28);
  const commentStart = extraStart + directory.readUInt16LE(at + 30);
  const next = commentStart + directory.readUInt16LE(at + 32);
  if (next > directory.length) throw new InvalidZipError(`${where} is truncated`);
  const nameBytes = Buffer.from(directory.subarray(nameStart, extraStart));
  const commentBytes = Buffer.from(directory.subarray(commentStart, next));
  const extras = parseExtraFields(directory.subarray(extraStart, commentStart));

  // Fields saturated at their 32-bit maximum continue in the ZIP64 extra field, in the order read here.
  const zip64 = extras.get(ZIP64_EXTRA_ID);
  let zip64At = 0;
  const fromZip64 = (value: number, required: boolean): number => {
    if (value !== U32_MAX) return value;
    if (zip64 && zip64At + 8 <= zip64.length) {
      zip64At += 8;
      return readUInt64(zip64, zip64At - 8);
    }
    // An uncompressed size of exactly 2^32-1 is legal without ZIP64 (Go's archive/zip allows it too).
    if (required) throw new InvalidZipError(`${where} lacks its ZIP64 extra field`);
    return value;
  };
  const uncompressedSize = fromZip64(directory.readUInt32LE(at + 24), false);
  const compressedSize = fromZip64(directory.readUInt32LE(at + 20), true);
  const localHeaderOffset = fromZip64(directory.readUInt32LE(at + 42), true);
  if (localHeaderOffset + LOCAL_HEADER_SIZE + compressedSize > directoryOffset) {
    throw new InvalidZipError(`${where}: its data would overlap the central directory`);
  }

  const externalAttributes = directory.readUInt32LE(at + 38);
  const mode = madeBy === HOST_UNIX || madeBy === HOST_MACOS ? externalAttributes >>> 16 : null;
  const msdosDirectory = madeByMsdos(madeBy) && (externalAttributes & MSDOS_DIRECTORY_ATTRIBUTE) !== 0;
  const utf8 = (flags & FLAG_UTF8) !== 0;
  const entry: ZipEntry = {
    name: decodeName(nameBytes, utf8, extras.get(UNICODE_PATH_EXTRA_ID)),
    nameBytes,
    comment: decodeText(commentBytes, utf8),
    commentBytes,
    method: directory.readUInt16LE(at + 10),
    encrypted: (flags & FLAG_ENCRYPTED) !== 0,
    crc32: directory.readUInt32LE(at + 16),
    compressedSize,
    uncompressedSize,
    localHeaderOffset,
    madeBy,
    externalAttributes,
    mode,
    isDirectory: nameBytes.at(-1) === 0x2f || (mode !== null && (mode & S_IFMT) === S_IFDIR) || msdosDirectory,
    modified: dosDateTime(directory.readUInt16LE(at + 14), directory.readUInt16LE(at + 12)),
  };
  return { entry, next };
}

/** Hosts whose external attributes are MS-DOS attribute bits (as Go's archive/zip reads them). */
export function madeByMsdos(madeBy: number): boolean {
  return madeBy === HOST_FAT || madeBy === HOST_NTFS || madeBy === HOST_VFAT;
}

/** First field of each id; a malformed tail is ignored, as Go's archive/zip does. */
function parseExtraFields(extra: Buffer): Map<number, Buffer> {
  const fields = new Map<number, Buffer>();
  let at = 0;
  while (at + 4 <= extra.length) {
    const id = extra.readUInt16LE(at);
    const length = extra.readUInt16LE(at + 2);
    if (at + 4 + length > extra.length) break;
    if (!fields.has(id)) fields.set(id, extra.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

function readUInt64(buffer: Buffer, at: number): number {
  const value = buffer.readBigUInt64LE(at);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new InvalidZipError(`64-bit size or offset ${value} is too large`);
  return Number(value);
}

/**
 * Flag bit 11 means UTF-8. Without it, the spec says CP437, but Unix zip tools (Info-ZIP zip 3.0
 * among them) store the locale's bytes, i.e. UTF-8, unflagged. So: an Info-ZIP Unicode Path field
 * that still matches the stored name wins, then bytes that are valid UTF-8 are read as UTF-8 (real
 * CP437 text above ASCII almost never is), and only the rest as CP437.
 */
function decodeName(bytes: Buffer, utf8: boolean, unicodePath: Buffer | undefined): string {
  if (!utf8 && unicodePath && unicodePath.length >= 5 && unicodePath[0] === 1 && unicodePath.readUInt32LE(1) === crc32(bytes)) {
    return unicodePath.subarray(5).toString("utf8");
  }
  return decodeText(bytes, utf8);
}

function decodeText(bytes: Buffer, utf8: boolean): string {
  if (utf8 || isUtf8(bytes)) return bytes.toString("utf8");
  let text = "";
  for (const byte of bytes) text += byte < 0x80 ? String.fromCharCode(byte) : CP437_HIGH[byte - 0x80];
  return text;
}

/** Out-of-range fields roll over (month 0 is December of the year before), like Go's time.Date. */
function dosDateTime(date: number, time: number): Date {
  return new Date(Date.UTC((date >>> 9) + 1980, ((date >>> 5) & 0xf) - 1, date & 0x1f, time >>> 11, (time >>> 5) & 0x3f, (time & 0x1f) * 2));
}
