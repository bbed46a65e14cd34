// The ref-update commands at the start of a receive-pack request (git's pkt-line format):
// `<old> <new> <ref>\0<capabilities>`, more commands, a flush ("0000"), then push options and the pack.
import { badRequest } from "@quarry/grpc";

/** One requested ref update; an all-zero sha as `oldSha` creates the ref, as `newSha` deletes it. */
export interface RefCommand {
  oldSha: string;
  newSha: string;
  /** Full ref name, e.g. "refs/heads/main". */
  ref: string;
}

const COMMAND = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{40}|[0-9a-f]{64}) (\S+)$/;

/** Whether `sha` is git's null object id (40 or 64 zeros). */
export const isNullSha = (sha: string): boolean => /^(0{40}|0{64})$/.test(sha);

/**
 * Collects the commands of a receive-pack request body fed chunk by chunk; `push` returns true
 * once the flush ending them has arrived. Lines other than commands ("shallow <sha>") are
 * skipped; a malformed pkt-line is refused. Only an incomplete line is kept between chunks.
 */
export class CommandReader {
  readonly commands: RefCommand[] = [];
  private pending: Buffer = Buffer.alloc(0);
  private complete = false;

  push(chunk: Buffer): boolean {
    if (this.complete) return true;
    const buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let at = 0;
    while (buf.length >= at + 4) {
      const header = buf.toString("latin1", at, at + 4);
      if (!/^[0-9a-f]{4}$/.test(header)) throw badRequest("malformed pkt-line");
      const length = parseInt(header, 16);
      if (length === 0) {
        this.complete = true;
        break;
      }
      if (length < 4) throw badRequest("malformed pkt-line");
      if (buf.length < at + length) break;
      const line = buf
        .toString("utf8", at + 4, at + length)
        .split("\0", 1)[0]!
        .replace(/\n$/, "");
      const m = COMMAND.exec(line);
      if (m) this.commands.push({ oldSha: m[1]!, newSha: m[2]!, ref: m[3]! });
      at += length;
    }
    this.pending = this.complete ? Buffer.alloc(0) : buf.subarray(at);
    return this.complete;
  }
}
