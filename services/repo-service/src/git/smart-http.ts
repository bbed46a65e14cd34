// Plumbing shared by the git smart HTTP RPCs (GitHttpService): running `git upload-pack` /
// `git receive-pack --stateless-rpc` with the request streamed to stdin and stdout streamed back
// in chunks, and turning handler failures into gRPC statuses as the unary wrapper does.
import { spawn } from "node:child_process";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import type * as grpc from "@grpc/grpc-js";
import { badRequest, failureStatus, ServiceError, status } from "@quarry/grpc";
import type { Logger } from "@quarry/logger";
import { gitEnvironment } from "./git.ts";
import { mayWriteRefs, refsChanged } from "./ref-writes.ts";

/** Largest data chunk one response message carries. */
export const CHUNK_SIZE = 64 * 1024;

/** The services a client may ask for. */
export const GIT_SERVICES = ["git-upload-pack", "git-receive-pack"] as const;
export type GitService = (typeof GIT_SERVICES)[number];

/**
 * Configuration every upload-pack (and its advertisement) runs with, as GitLab's Gitaly does:
 * partial clones (`--filter`) and fetching any reachable sha.
 */
export const UPLOAD_PACK_CONFIG = ["-c", "uploadpack.allowFilter=true", "-c", "uploadpack.allowAnySHA1InWant=true"];

/**
 * Where a git service's output goes as `{ data }` chunks: a gRPC call, or anything with the same
 * write / "drain" / "cancelled" behaviour (the SSH server's channel adapter, ssh/channel.ts).
 */
export interface ChunkWriter {
  write(chunk: { data: Buffer }): boolean;
  once(event: "drain", listener: () => void): unknown;
  on(event: "cancelled", listener: () => void): unknown;
  off(event: "cancelled", listener: () => void): unknown;
}

/**
 * The client's protocol request for GIT_PROTOCOL: only `version=N` entries separated by ":"
 * reach git (anything else in the header is dropped).
 */
export function gitProtocolEnv(header: string): Record<string, string> {
  const parts = header.split(":").filter((p) => /^version=\d$/.test(p));
  return parts.length ? { GIT_PROTOCOL: parts.join(":") } : {};
}

/**
 * A raw grpc-js streaming handler around `run`: resolves → OK status; a ServiceError → its
 * status and GitLab body; anything else is logged and answered with a bare INTERNAL.
 */
export function streamingHandler<C extends grpc.ServerWritableStream<unknown, { data: Buffer }> | grpc.ServerDuplexStream<unknown, { data: Buffer }>>(
  name: string,
  log: Logger,
  run: (call: C) => Promise<void>,
): (call: C) => void {
  return (call) => {
    const requestId = call.metadata.get("x-request-id")[0]?.toString();
    const callLog = log.child({ rpc: `quarry.repo.v1.GitHttpService/${name}`, requestId });
    run(call)
      .then(
        () => call.end(),
        (err: unknown) => call.emit("error", failureStatus(err, callLog)),
      )
      .catch((err: unknown) => callLog.error({ err }, "rpc status could not be sent"));
  };
}

/** Writes `data` to the call in chunks of at most CHUNK_SIZE; resolves once the call can take more. */
export async function writeChunks(call: ChunkWriter, data: Buffer): Promise<void> {
  for (let at = 0; at < data.length; at += CHUNK_SIZE) {
    if (!call.write({ data: data.subarray(at, at + CHUNK_SIZE) })) {
      await new Promise<void>((resolve) => call.once("drain", resolve));
    }
  }
}

/**
 * The first request message of a client-streaming call, and the body bytes of all messages
 * (the first one's included) as a byte stream.
 */
export async function readFirst<T extends { data: Buffer }>(call: Readable): Promise<{ first: T; body: AsyncIterable<Buffer> }> {
  // Not destroyed at the end of the input: that would end the response side of the call too.
  const it = call.iterator({ destroyOnReturn: false }) as AsyncIterator<T>;
  const head = await it.next();
  if (head.done) throw badRequest("empty request");
  const first = head.value;
  async function* body(): AsyncIterable<Buffer> {
    if (first.data.length) yield first.data;
    for (let next = await it.next(); !next.done; next = await it.next()) {
      if (next.value.data.length) yield next.value.data;
    }
  }
  return { first, body: body() };
}

export interface GitServiceRun {
  /** git's arguments (the repository directory included). */
  args: string[];
  /** Extra environment (GIT_PROTOCOL, hook variables). */
  env?: Record<string, string>;
  /** Bytes for stdin; stdin is closed at once when omitted. */
  input?: AsyncIterable<Buffer>;
  call: ChunkWriter;
  log: Logger;
}

/**
 * Runs a git service process, streaming `input` to its stdin and its stdout to the call as
 * chunks (with backpressure both ways). A cancelled call kills the process. Resolves when git
 * exited 0; otherwise rejects with a bare INTERNAL (git's stderr is logged, never sent).
 */
export function runGitService(o: GitServiceRun): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", o.args, { env: gitEnvironment(o.env), stdio: ["pipe", "pipe", "pipe"] });
    const stderr: Buffer[] = [];
    let stderrSize = 0;
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderrSize < CHUNK_SIZE) stderr.push(chunk);
      stderrSize += chunk.length;
    });
    const cancel = () => child.kill("SIGKILL");
    o.call.on("cancelled", cancel);

    let writing = Promise.resolve();
    child.stdout.on("data", (chunk: Buffer) => {
      child.stdout.pause();
      writing = writeChunks(o.call, chunk).then(() => {
        child.stdout.resume();
      });
    });
    // A process that exits before reading all of its input closes the pipe: the exit code tells.
    child.stdin.on("error", () => {});
    const feeding = o.input ? pipeline(Readable.from(o.input), child.stdin).catch(() => child.stdin.destroy()) : Promise.resolve(child.stdin.end());

    child.on("error", reject);
    child.on("close", (code, signal) => {
      o.call.off("cancelled", cancel);
      // receive-pack (HTTP and SSH pushes) names the repository last; its ref updates end cached reads.
      if (mayWriteRefs(o.args)) refsChanged(o.args[o.args.length - 1]!);
      void Promise.all([writing, feeding]).then(() => {
        if (code === 0) return resolve();
        o.log.warn({ args: o.args, code, signal, stderr: Buffer.concat(stderr).toString("utf8").slice(0, 4000) }, "git service failed");
        reject(new ServiceError(status.INTERNAL, { message: "500 Internal Server Error" }));
      });
    });
  });
}
