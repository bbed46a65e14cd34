// Commit message trailers, parsed the way git does (trailer.c as used by
// `git interpret-trailers --parse` and `git log --format=%(trailers:only,unfold)`), so that no git
// process is needed per commit. Without `config` (no trailer.<key>.* settings, ":" as the only
// separator, "#" as the comment character).

const COMMENT_CHAR = "#";
/** wt-status.c's scissors line; everything from it on is ignored. */
const CUT_LINE = `${COMMENT_CHAR} ------------------------ >8 ------------------------\n`;
/** Lines git writes itself; one of them lets a block pass with only 25% trailer lines. */
const GIT_GENERATED_PREFIXES = ["Signed-off-by: ", "(cherry picked from commit "];

export interface Trailer {
  key: string;
  value: string;
}

export interface TrailerOptions {
  /**
   * Whether a line starting with "---" and whitespace ends the message (the patch divider of
   * `git interpret-trailers`). Off by default, as for `git log --format=%(trailers)` and Gitaly:
   * a commit message has no patch, and "---" may be a Markdown rule.
   */
  divider?: boolean;
}

/** C's isspace() in the C locale. */
function isSpace(c: string | undefined): boolean {
  return c === " " || c === "\t" || c === "\n" || c === "\v" || c === "\f" || c === "\r";
}

function isAlnum(c: string): boolean {
  return (c >= "0" && c <= "9") || (c >= "a" && c <= "z") || (c >= "A" && c <= "Z");
}

/** strbuf_trim: strips isspace() characters at both ends. */
function trim(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isSpace(s[start])) start++;
  while (end > start && isSpace(s[end - 1])) end--;
  return s.slice(start, end);
}

/**
 * Position of the ":" of a "Token: value" line, or -1. The token is letters, digits and "-",
 * optionally followed by blanks ("Key : value" counts).
 */
function findSeparator(line: string): number {
  let whitespaceFound = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "\n") break;
    if (c === ":") return i;
    if (!whitespaceFound && (isAlnum(c) || c === "-")) continue;
    if (i !== 0 && (c === " " || c === "\t")) {
      whitespaceFound = true;
      continue;
    }
    break;
  }
  return -1;
}

/** A line consisting of blanks only (up to its newline). */
function isBlankLine(line: string): boolean {
  for (const c of line) {
    if (c === "\n") return true;
    if (!isSpace(c)) return false;
  }
  return true;
}

interface Line {
  /** Offset of the line's first character. */
  start: number;
  /** The line including its "\n" (the last line may lack one). */
  text: string;
}

function splitLines(buf: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < buf.length) {
    const nl = buf.indexOf("\n", start);
    const end = nl === -1 ? buf.length : nl + 1;
    lines.push({ start, text: buf.slice(start, end) });
    start = end;
  }
  return lines;
}

/** Where the patch starts ("---" followed by whitespace at the start of a line), else the length. */
function findPatchStart(msg: string): number {
  for (const line of splitLines(msg)) {
    if (line.text.startsWith("---") && isSpace(line.text[3])) return line.start;
  }
  return msg.length;
}

/**
 * commit.c's ignore_non_trailer: the end of the message once trailing comment lines, blank lines
 * and an old-style "Conflicts:" block are dropped (and everything from the scissors line on).
 */
function findTrailerEnd(buf: string): number {
  let cutoff = buf.length;
  if (buf.startsWith(CUT_LINE)) cutoff = 0;
  else {
    const at = buf.indexOf(`\n${CUT_LINE}`);
    if (at !== -1) cutoff = at + 1;
  }
  let boc = 0;
  let inOldConflictsBlock = false;
  for (const { start, text } of splitLines(buf.slice(0, cutoff))) {
    if (text[0] === COMMENT_CHAR || text[0] === "\n") {
      if (!boc) boc = start;
    } else if (text.startsWith("Conflicts:\n")) {
      inOldConflictsBlock = true;
      if (!boc) boc = start;
    } else if (inOldConflictsBlock && text[0] === "\t") {
      // a path in the conflicts block
    } else if (boc) {
      boc = 0;
      inOldConflictsBlock = false;
    }
  }
  return boc ? boc : cutoff;
}

/**
 * trailer.c's find_trailer_start: the start of the last paragraph when it is a trailer block —
 * all its lines are trailers (or continuation lines), or it has a git-generated line
 * (Signed-off-by, cherry-picked) and at least 25% trailer lines. The first paragraph (the title)
 * never is. Returns `buf.length` when there is no block.
 */
function findTrailerStart(buf: string): number {
  const lines = splitLines(buf);
  let endOfTitle = buf.length;
  for (const line of lines) {
    if (line.text[0] === COMMENT_CHAR) continue;
    if (isBlankLine(line.text)) {
      endOfTitle = line.start;
      break;
    }
  }

  let onlySpaces = true;
  let recognizedPrefix = false;
  let trailerLines = 0;
  let nonTrailerLines = 0;
  // Lines starting with whitespace: continuations if a trailer precedes them, non-trailers otherwise.
  let possibleContinuationLines = 0;
  for (let i = lines.length - 1; i >= 0 && lines[i]!.start >= endOfTitle; i--) {
    const bol = lines[i]!.text;
    if (bol[0] === COMMENT_CHAR) {
      nonTrailerLines += possibleContinuationLines;
      possibleContinuationLines = 0;
      continue;
    }
    if (isBlankLine(bol)) {
      if (onlySpaces) continue;
      nonTrailerLines += possibleContinuationLines;
      const next = i + 1 < lines.length ? lines[i + 1]!.start : buf.length;
      if (recognizedPrefix && trailerLines * 3 >= nonTrailerLines) return next;
      if (trailerLines && !nonTrailerLines) return next;
      return buf.length;
    }
    onlySpaces = false;

    if (GIT_GENERATED_PREFIXES.some((p) => bol.startsWith(p))) {
      trailerLines++;
      possibleContinuationLines = 0;
      recognizedPrefix = true;
      continue;
    }
    const separatorPos = findSeparator(bol);
    if (separatorPos >= 1 && !isSpace(bol[0])) {
      trailerLines++;
      possibleContinuationLines = 0;
    } else if (isSpace(bol[0])) {
      possibleContinuationLines++;
    } else {
      nonTrailerLines++;
      nonTrailerLines += possibleContinuationLines;
      possibleContinuationLines = 0;
    }
  }
  return buf.length;
}

/** Folds continuation lines into one line: each newline and the blanks after it become one space. */
function unfold(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; ) {
    const c = value[i++]!;
    if (c === "\n") {
      while (i < value.length && isSpace(value[i])) i++;
      out += " ";
    } else {
      out += c;
    }
  }
  return trim(out);
}

/**
 * The trailers of a commit message in message order, as `git interpret-trailers --parse`
 * prints them (token and value trimmed, continuation lines unfolded, non-trailer lines of the
 * block skipped).
 */
export function parseTrailers(message: string, o: TrailerOptions = {}): Trailer[] {
  const patchStart = o.divider ? findPatchStart(message) : message.length;
  const text = message.slice(0, patchStart);
  const trailerEnd = findTrailerEnd(text);
  const block = text.slice(0, trailerEnd);
  const trailerStart = findTrailerStart(block);
  if (trailerStart >= trailerEnd) return [];

  // Continuation lines (starting with whitespace) join the trailer before them.
  const entries: string[] = [];
  let lastIsTrailer = false;
  for (const { text: line } of splitLines(block.slice(trailerStart))) {
    if (lastIsTrailer && isSpace(line[0])) {
      entries[entries.length - 1] += line;
      continue;
    }
    entries.push(line);
    lastIsTrailer = findSeparator(line) >= 1;
  }

  const trailers: Trailer[] = [];
  for (const entry of entries) {
    if (entry[0] === COMMENT_CHAR) continue;
    const sep = findSeparator(entry);
    if (sep < 1) continue;
    trailers.push({ key: trim(entry.slice(0, sep)), value: unfold(trim(entry.slice(sep + 1))) });
  }
  return trailers;
}

/** GitLab's two views of the trailers: key → last value, and key → every value in order. */
export function trailerMaps(trailers: readonly Trailer[]): {
  trailers: Record<string, string>;
  extendedTrailers: Record<string, { values: string[] }>;
} {
  // Maps, then own properties: keys such as "constructor" must not meet Object.prototype.
  const last = new Map<string, string>();
  const all = new Map<string, string[]>();
  for (const { key, value } of trailers) {
    last.set(key, value);
    const values = all.get(key);
    if (values) values.push(value);
    else all.set(key, [value]);
  }
  return {
    trailers: Object.fromEntries(last),
    extendedTrailers: Object.fromEntries([...all].map(([key, values]) => [key, { values }])),
  };
}
