import * as grpc from "@grpc/grpc-js";
import { silentLogger } from "@quarry/logger";
import { ciV1, repoV1 } from "@quarry/proto";
import type { GetArchiveResponse__Output } from "@quarry/proto/types/repo/v1/GetArchiveResponse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callClientStream, callServerStream, clientStream, createGrpcServer, httpErrorFromGrpc, notFound, serverStream, type GrpcServer } from "./index.ts";

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

// One client-streaming method of the ci contract, served alone.
const uploadDefinition = { UploadArtifact: ciV1.CiService.service.UploadArtifact } as unknown as grpc.ServiceDefinition;
const UploadClient = grpc.makeClientConstructor(uploadDefinition, "UploadTest");

describe("client streaming", () => {
  let upServer: GrpcServer;
  let upAddress: string;
  let received: number[] = [];
  beforeAll(async () => {
    upServer = createGrpcServer(silentLogger());
    upServer.addService("test.Upload", uploadDefinition, {
      UploadArtifact: clientStream(async (requests: AsyncIterable<{ header?: { filename: string }; data: Buffer }>) => {
        received = [];
        let name = "";
        for await (const m of requests) {
          if (m.header) name = m.header.filename;
          else received.push(m.data.length);
        }
        if (name === "refuse") throw notFound("Job");
        return { file: { filename: name, size: received.reduce((a, b) => a + b, 0) } };
      }),
    } as never);
    upAddress = await upServer.listen("127.0.0.1:0");
  });
  afterAll(() => upServer.stop(100));

  async function* messages(name: string, chunks: number, fail = false) {
    yield { header: { filename: name } };
    for (let i = 0; i < chunks; i++) {
      if (fail && i === 1) throw new Error("source broke");
      yield { data: Buffer.alloc(1024 * 1024, i) };
    }
  }
  const upload = (name: string, chunks: number, fail = false) =>
    callClientStream<unknown, { file: { filename: string; size: number } }>(
      { raw: new UploadClient(upAddress, grpc.credentials.createInsecure()) },
      "UploadArtifact",
      messages(name, chunks, fail),
      { deadlineMs: 5000 },
    );

  it("delivers every message in order and returns the handler's answer", async () => {
    const res = await upload("a.zip", 8);
    expect(res.file).toMatchObject({ filename: "a.zip", size: 8 * 1024 * 1024 });
    expect(received).toEqual(Array(8).fill(1024 * 1024));
  });

  it("maps a ServiceError to its status", async () => {
    const err = await upload("refuse", 1).catch((e: unknown) => e);
    expect(httpErrorFromGrpc(err)).toEqual({ status: 404, body: { message: "404 Job Not Found" } });
  });

  it("cancels the call when the source fails, and rethrows", async () => {
    await expect(upload("b.zip", 3, true)).rejects.toThrow("source broke");
  });

  it("refuses a unary handler for a client-streaming method", () => {
    expect(() => createGrpcServer(silentLogger()).addService("x", uploadDefinition, { UploadArtifact: async () => ({}) } as never)).toThrow(/does not match/);
  });
});
