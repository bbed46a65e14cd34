// A Quarry-like owner of an embedded server, for the crash tests: starts the server on argv[2],
// prints {"url","postmaster"} as one line and then waits to be killed.
import { readFileSync } from "node:fs";
import path from "node:path";
import { startEmbeddedPostgres } from "../src/embedded.ts";

const dataDir = process.argv[2]!;
const server = await startEmbeddedPostgres({ dataDir });
const postmaster = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
process.stdout.write(JSON.stringify({ url: server.url, postmaster }) + "\n");
setInterval(() => {}, 60_000);
