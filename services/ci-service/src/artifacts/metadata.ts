// GitLab's "artifacts metadata" file: the listing of an artifacts archive that GitLab browses
// instead of opening the zip. Written as gitlab-workhorse's zipartifacts.GenerateZipMetadata does
// (workhorse/internal/zipartifacts/metadata.go), read as Gitlab::Ci::Build::Artifacts::Metadata
// (lib/gitlab/ci/build/artifacts/metadata.rb) does.
//
// Format, inside one gzip member: a sequence of "strings", each a big-endian uint32 byte length
// followed by the bytes. First the header "GitLab Build Artifacts Metadata 0.0.2\n", then "{}"
// (an errors object, always empty), then per path, sorted bytewise, the path and its JSON
// metadata followed by "\n". Parent directories missing from the archive get entries too.
import { isUtf8 } from "node:buffer";
import { gunzipSync, gzipSync } from "node:zlib";
import { madeByMsdos, MSDOS_DIRECTORY_ATTRIBUTE, MSDOS_READ_ONLY_ATTRIBUTE, type ZipEntry } from "./zip-directory.ts";

export const ARTIFACTS_METADATA_HEADER = "GitLab Build Artifacts Metadata 0.0.2\n";

/** One path's metadata as workhorse writes it; `modified`, `mode` and `comment` are left out when zero/empty. */
export interface ArtifactsMetadataFields {
  /** Unix seconds of the entry's DOS date/time read as UTC. */
  modified?: number;
  /** Permission bits in octal, e.g. "644". */
  mode?: string;
  crc?: number;
  size?: number;
  zipped?: number;
  comment?: string;
}

export interface ArtifactsMetadataEntry extends ArtifactsMetadataFields {
  /** Directories end with "/". */
  path: string;
}

/** Not gzip, empty, or without a version header (GitLab's Metadata::ParserError / InvalidStreamError). */
export class InvalidArtifactsMetadataError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidArtifactsMetadataError";
  }
}

/** The gzipped metadata file for an archive's entries. The uncompressed bytes are workhorse's exactly. */
export function buildArtifactsMetadata(entries: readonly ZipEntry[]): Buffer {
  // Paths are handled as "binary" strings (one char per byte): workhorse writes the stored name
  // bytes whatever their encoding, and compares and sorts them bytewise.
  const byPath = new Map<string, ZipEntry | null>();
  for (const entry of entries) {
    const path = entry.nameBytes.toString("latin1");
    byPath.set(path, entry); // a later duplicate wins, as in workhorse's map
    for (let dir = goPathDir(path); dir !== "." && dir !== "/"; dir = goPathDir(dir)) {
      if (!byPath.has(`${dir}/`)) byPath.set(`${dir}/`, null);
    }
  }
  const parts = [lengthPrefixed(Buffer.from(ARTIFACTS_METADATA_HEADER)), lengthPrefixed(Buffer.from("{}"))];
  for (const path of [...byPath.keys()].sort()) {
    parts.push(lengthPrefixed(Buffer.from(path, "latin1")), lengthPrefixed(Buffer.from(metadataJson(byPath.get(path)!), "latin1")));
  }
  return gzipSync(Buffer.concat(parts));
}

function lengthPrefixed(bytes: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** json.Marshal of workhorse's metadata struct plus "\n", as a binary string; `null` is an implied directory. */
function metadataJson(entry: ZipEntry | null): string {
  const fields: string[] = [];
  if (entry) {
    const modified = Math.floor(entry.modified.getTime() / 1000);
    if (modified !== 0) fields.push(`"modified":${modified}`);
    fields.push(`"mode":"${goPermissions(entry).toString(8)}"`);
  }
  fields.push(`"crc":${entry?.crc32 ?? 0}`, `"size":${entry?.uncompressedSize ?? 0}`, `"zipped":${entry?.compressedSize ?? 0}`);
  if (entry && entry.commentBytes.length > 0) fields.push(`"comment":${goJsonString(entry.commentBytes)}`);
  return `{${fields.join(",")}}\n`;
}

/** Go's zip FileHeader.Mode().Perm(): Unix mode bits, or derived from the MS-DOS attributes. */
function goPermissions(entry: ZipEntry): number {
  if (entry.mode !== null) return entry.mode & 0o777;
  if (!madeByMsdos(entry.madeBy)) return 0;
  const perm = entry.externalAttributes & MSDOS_DIRECTORY_ATTRIBUTE ? 0o777 : 0o666;
  return entry.externalAttributes & MSDOS_READ_ONLY_ATTRIBUTE ? perm & ~0o222 : perm;
}

const HEX = "0123456789abcdef";

/**
 * Go's encoding/json string encoding (escapeHTML on, Go ≥ 1.22) of raw bytes, as a binary
 * string: `<`, `>`, `&` and U+2028/2029 become \u escapes, each invalid UTF-8 byte becomes
 * \ufffd, other valid UTF-8 passes through.
 */
function goJsonString(bytes: Buffer): string {
  let out = '"';
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x80) {
      if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
      else if (b === 0x08) out += "\\b";
      else if (b === 0x0c) out += "\\f";
      else if (b === 0x0a) out += "\\n";
      else if (b === 0x0d) out += "\\r";
      else if (b === 0x09) out += "\\t";
      else if (b < 0x20 || b === 0x3c || b === 0x3e || b === 0x26) out += `\\u00${HEX[b >> 4]}${HEX[b & 0xf]}`;
      else out += String.fromCharCode(b);
      i++;
      continue;
    }
    const size = utf8SequenceLength(bytes, i);
    if (size === 0) {
      out += "\\ufffd";
      i++;
    } else if (size === 3 && b === 0xe2 && bytes[i + 1] === 0x80 && (bytes[i + 2] === 0xa8 || bytes[i + 2] === 0xa9)) {
      out += `\\u202${HEX[bytes[i + 2]! & 0xf]}`;
      i += 3;
    } else {
      out += bytes.toString("latin1", i, i + size);
      i += size;
    }
  }
  return `${out}"`;
}

/** Length of the valid UTF-8 sequence starting at `i` (lead byte ≥ 0x80), or 0 if invalid (Go's utf8.DecodeRune). */
function utf8SequenceLength(bytes: Buffer, i: number): number {
  const b = bytes[i]!;
  const inRange = (at: number, low: number, high: number) => bytes[at] !== undefined && bytes[at]! >= low && bytes[at]! <= high;
  let size: number;
  let secondLow = 0x80;
  let secondHigh = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) size = 2;
  else if (b >= 0xe0 && b <= 0xef) {
    size = 3;
    if (b === 0xe0) secondLow = 0xa0; // no overlong forms
    if (b === 0xed) secondHigh = 0x9f; // no surrogates
  } else if (b >= 0xf0 && b <= 0xf4) {
    size = 4;
    if (b === 0xf0) secondLow = 0x90;
    if (b === 0xf4) secondHigh = 0x8f; // nothing above U+10FFFF
  } else return 0;
  if (!inRange(i + 1, secondLow, secondHigh)) return 0;
  for (let k = 2; k < size; k++) if (!inRange(i + k, 0x80, 0xbf)) return 0;
  return size;
}

/** Go's path.Dir: the path up to its last "/", cleaned ("." when there is none). */
function goPathDir(path: string): string {
  return goPathClean(path.slice(0, path.lastIndexOf("/") + 1));
}

/** Go's path.Clean: drops empty and "." segments, resolves ".." where it can. */
function goPathClean(path: string): string {
  if (path === "") return ".";
  const rooted = path.startsWith("/");
  const out: string[] = [];
  let fixedDotDots = 0; // leading ".." segments of a relative path cannot be backtracked over
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") out.push(segment);
    else if (out.length > fixedDotDots) out.pop();
    else if (!rooted) fixedDotDots = out.push("..");
  }
  const cleaned = out.join("/");
  return rooted ? `/${cleaned}` : cleaned || ".";
}

// Metadata.rb's patterns; Ruby's ^ matches after any "\n" and its \w and \s are ASCII-only.
const VERSION_PATTERN = /(?:^|\n)[A-Za-z0-9_ \t\r\n\f\v]+\d+\.\d+\.\d+/;
const INVALID_PATH_PATTERN = /(?:^|\n)\.?\.?\/|\/\.?\.?\//;

/**
 * Every path the metadata lists, as GitLab's reader accepts them: paths or JSON that are not
 * valid UTF-8, paths that are absolute or contain "." / ".." / empty segments, unparsable JSON
 * and JSON that is not an object are skipped; a repeated path keeps its first position and last
 * value. Fields of the wrong type are dropped.
 * @throws InvalidArtifactsMetadataError
 */
export function readArtifactsMetadata(gz: Buffer): ArtifactsMetadataEntry[] {
  let payload: Buffer;
  try {
    payload = gunzipSync(gz);
  } catch (err) {
    throw new InvalidArtifactsMetadataError("artifacts metadata is not gzip data", { cause: err });
  }
  let at = 0;
  // Like Ruby's gz.read: undefined once not even a length is left, a short string when truncated.
  const readString = (): Buffer | undefined => {
    if (at + 4 > payload.length) {
      at = payload.length;
      return undefined;
    }
    const length = payload.readUInt32BE(at);
    const bytes = payload.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    return bytes;
  };
  const version = readString();
  if (version === undefined) throw new InvalidArtifactsMetadataError("artifacts metadata is empty");
  if (!VERSION_PATTERN.test(version.toString("latin1"))) throw new InvalidArtifactsMetadataError("artifacts metadata has an invalid version");
  readString(); // the errors object

  const entries = new Map<string, ArtifactsMetadataFields>();
  while (at < payload.length) {
    const pathBytes = readString();
    const json = readString();
    if (pathBytes === undefined || json === undefined || !isUtf8(pathBytes) || !isUtf8(json)) continue;
    const path = pathBytes.toString("utf8");
    if (INVALID_PATH_PATTERN.test(path)) continue;
    const fields = parseFields(json.toString("utf8"));
    if (fields) entries.set(path, fields);
  }
  return [...entries].map(([path, fields]) => ({ path, ...fields }));
}

function parseFields(json: string): ArtifactsMetadataFields | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const fields: ArtifactsMetadataFields = {};
  for (const key of ["modified", "crc", "size", "zipped"] as const) {
    if (typeof record[key] === "number") fields[key] = record[key];
  }
  for (const key of ["mode", "comment"] as const) {
    if (typeof record[key] === "string") fields[key] = record[key];
  }
  return fields;
}
