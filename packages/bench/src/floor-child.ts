// The HTTP floors of `pnpm bench`, in their own process so the load generator does not share their
// event loop (as the stack runs in stack-child.ts):
// - the cat-file floor: a minimal `node:http` server answering `GET /<rev>:<path>` (URL-encoded)
//   with that blob's bytes, read from ONE persistent `git cat-file --batch` process on the bench's
//   bare repository (requests queue on it in order). It is what a raw-file read costs with nothing
//   but HTTP and git: no gRPC, no authentication, no database.
// - the constant floor: a minimal `node:http` server answering every request with the same small
//   JSON body: the cost of Node's HTTP alone.
// Started with BENCH_FLOOR_GIT_DIR; sends { catFileUrl, constantUrl } over IPC, stops on "stop".
import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";

const gitDir = process.env.BENCH_FLOOR_GIT_DIR!;
const catFile = spawn("git", ["--git-dir", gitDir, "cat-file", "--batch"], { stdio: ["pipe", "pipe", "inherit"] });

type Pending = (blob: Buffer | undefined) => void;
const pending: Pending[] = [];
let buffered: Buffer = Buffer.alloc(0);
/** The size of the object whose content is being read, or -1 while waiting for a header line. */
let size = -1;

// `git cat-file --batch` answers each line with "<oid> <type> <size>\n<content>\n", or
// "<rev> missing\n"; answers come in request order.
catFile.stdout.on("data", (chunk: Buffer) => {
  buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
  for (;;) {
    if (size < 0) {
      const eol = buffered.indexOf(10);
      if (eol < 0) return;
      const header = buffered.subarray(0, eol).toString();
      buffered = buffered.subarray(eol + 1);
      if (header.endsWith(" missing")) {
        pending.shift()!(undefined);
        continue;
      }
      size = Number(header.slice(header.lastIndexOf(" ") + 1));
    }
    if (buffered.length < size + 1) return;
    const blob = Buffer.from(buffered.subarray(0, size));
    buffered = buffered.subarray(size + 1);
    size = -1;
    pending.shift()!(blob);
  }
});

function readBlob(rev: string): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    pending.push(resolve);
    catFile.stdin.write(`${rev}\n`);
  });
}

const catFileServer = http.createServer(async (req, res) => {
  const blob = await readBlob(decodeURIComponent((req.url ?? "/").slice(1)));
  if (!blob) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": blob.length });
  res.end(blob);
});

const constant = Buffer.from(JSON.stringify({ id: 1, username: "root", name: "Administrator", state: "active" }));
const constantServer = http.createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": constant.length });
  res.end(constant);
});

const listen = async (server: http.Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

process.send!({ catFileUrl: await listen(catFileServer), constantUrl: await listen(constantServer) });
process.on("message", (m) => {
  if (m === "stop") {
    catFile.stdin.end();
    catFileServer.close();
    constantServer.close();
    process.exit(0);
  }
});
