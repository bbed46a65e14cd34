import * as grpc from "@grpc/grpc-js";
import { silentLogger } from "@quarry/logger";
import { repoV1 } from "@quarry/proto";
import type { GetArchiveResponse__Output } from "@quarry/proto/types/repo/v1/GetArchiveResponse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callServerStream, createGrpcServer, httpErrorFromGrpc, notFound, serverStream, type GrpcServer } from "./index.ts";

// One server-streaming method of a real contract, served alone.
const definition = { GetArchive: repoV1.RepoService.service.GetArchive } as unknown as grpc.ServiceDefinition;
const Client = grpc.makeClientConstructor(definition, "StreamTest");

let server: GrpcServer;
let address: string;
let finished = false;

beforeAll(async () => {
  server = createGrpcServer(silentLogger());
  server.addService("test.Stream", definition, {
    GetArchive: serverStream(async function* (req: { ref: string }) {
      if (req.ref === "missing") throw notFound("File");
      if (req.ref === "crash") {
        yield { fileName: "x" };
        throw new Error("secret internals");
      }
      try {
        // Endless unless the caller stops reading.
        for (let i = 0; req.ref === "endless" || i < 3; i++) yield { fileName: String(i), data: Buffer.alloc(64 * 1024, i) };
      } finally {
        finished = true;
      }
    }),
  } as never);
  address = await server.listen("127.0.0.1:0");
});
afterAll(() => server.stop(100));

const client = () => ({ raw: new Client(address, grpc.credentials.createInsecure()) });
const call = (ref: string) => callServerStream<GetArchiveResponse__Output>(client(), "GetArchive", { ref }, { deadlineMs: 5000 });

describe("server streaming", () => {
  it("sends every yielded message in order", async () => {
    const names: string[] = [];
    for await (const m of call("ok")) names.push(m.fileName);
    expect(names).toEqual(["0", "1", "2"]);
  });

  it("ends the call with a ServiceError's status and body", async () => {
    const err = await (async () => {
      for await (const _ of call("missing"));
    })().catch((e: unknown) => e);
    expect(httpErrorFromGrpc(err)).toEqual({ status: 404, body: { message: "404 File Not Found" } });
  });

  it("hides unexpected errors behind INTERNAL, after messages already sent", async () => {
    const got: string[] = [];
    const err = await (async () => {
      for await (const m of call("crash")) got.push((m as GetArchiveResponse__Output).fileName);
    })().catch((e: { code: number; details: string }) => e);
    expect(got).toEqual(["x"]);
    expect(err).toMatchObject({ code: grpc.status.INTERNAL, details: "internal error" });
  });

  it("returns the handler's iterator when the caller cancels", async () => {
    finished = false;
    const stream = call("endless");
    for await (const m of stream) {
      if (m.fileName === "5") break;
    }
    expect(finished).toBe(false);
    stream.cancel();
    await expect.poll(() => finished).toBe(true);
  });

  it("refuses a unary handler for a streaming method", () => {
    expect(() => createGrpcServer(silentLogger()).addService("x", definition, { GetArchive: async () => ({}) } as never)).toThrow(/does not match/);
  });
});
