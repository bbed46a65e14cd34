import * as grpc from "@grpc/grpc-js";
import { silentLogger } from "@quarry/logger";
import { ciV1 } from "@quarry/proto";
import { service as healthService } from "grpc-health-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { badRequest, createClient, createGrpcServer, failedPrecondition, httpErrorFromGrpc, notFound, type GrpcServer } from "./index.ts";

let behaviour: "ok" | "notFound" | "badRequest" | "precondition" | "crash" | "slow" = "ok";
let server: GrpcServer;
let address: string;

beforeAll(async () => {
  server = createGrpcServer(silentLogger());
  // Only GetStorageInfo is served: the registry checks that every method it is given has a handler.
  const { GetStorageInfo } = ciV1.CiService.service;
  server.addService(
    "quarry.ci.v1.CiService",
    { GetStorageInfo },
    {
      async GetStorageInfo() {
        switch (behaviour) {
          case "notFound":
            throw notFound("Project");
          case "badRequest":
            throw badRequest({ name: ["has already been taken"] });
          case "precondition":
            throw failedPrecondition("cannot remove the last owner");
          case "crash":
            throw new Error("secret internals at /srv/x.ts:42");
          case "slow":
            await new Promise((r) => setTimeout(r, 1500));
            return { kind: "local" };
          default:
            return { kind: "local", artifactsBucket: "artifacts", canPresign: false };
        }
      },
    },
  );
  address = await server.listen("127.0.0.1:0");
});

afterAll(() => server.stop(100));

const client = () => createClient(ciV1.CiService, address, { deadlineMs: 1000 });

describe("grpc server and client", () => {
  it("round-trips a typed unary call", async () => {
    behaviour = "ok";
    await expect(client().GetStorageInfo({})).resolves.toEqual({ kind: "local", artifactsBucket: "artifacts", canPresign: false });
  });

  it("carries typed errors with their GitLab body to the HTTP mapping", async () => {
    behaviour = "notFound";
    const err = await client()
      .GetStorageInfo({})
      .catch((e) => e);
    expect(err.code).toBe(grpc.status.NOT_FOUND);
    expect(httpErrorFromGrpc(err)).toEqual({ status: 404, body: { message: "404 Project Not Found" } });

    behaviour = "badRequest";
    expect(
      httpErrorFromGrpc(
        await client()
          .GetStorageInfo({})
          .catch((e) => e),
      ),
    ).toEqual({
      status: 400,
      body: { message: { name: ["has already been taken"] } },
    });

    behaviour = "precondition";
    expect(
      httpErrorFromGrpc(
        await client()
          .GetStorageInfo({})
          .catch((e) => e),
      ),
    ).toEqual({
      status: 409,
      body: { message: "cannot remove the last owner" },
    });
  });

  it("hides unexpected failures behind a bare 500", async () => {
    behaviour = "crash";
    const mapped = httpErrorFromGrpc(
      await client()
        .GetStorageInfo({})
        .catch((e) => e),
    );
    expect(mapped).toEqual({ status: 500, body: { message: "500 Internal Server Error" } });
  });

  it("turns a slow service into 503 at the deadline", async () => {
    behaviour = "slow";
    const err = await client()
      .GetStorageInfo({}, { deadlineMs: 100 })
      .catch((e) => e);
    expect(err.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    expect(httpErrorFromGrpc(err)).toEqual({ status: 503, body: { message: "503 Service Unavailable" } });
  });

  it("turns an unreachable service into 503", async () => {
    const dead = createClient(ciV1.CiService, "127.0.0.1:1", { deadlineMs: 2000 });
    const err = await dead.GetStorageInfo({}).catch((e) => e);
    expect(err.code).toBe(grpc.status.UNAVAILABLE);
    expect(httpErrorFromGrpc(err).status).toBe(503);
    dead.close();
  });

  it("serves the standard health service", async () => {
    const Health = grpc.makeGenericClientConstructor(healthService as grpc.ServiceDefinition, "Health");
    const h = new Health(address, grpc.credentials.createInsecure()) as unknown as {
      check(req: { service: string }, cb: (err: Error | null, res: { status: string | number }) => void): void;
      close(): void;
    };
    const res = await new Promise<{ status: string | number }>((resolve, reject) =>
      h.check({ service: "quarry.ci.v1.CiService" }, (err, r) => (err ? reject(err) : resolve(r))),
    );
    expect([1, "SERVING"]).toContain(res.status);
    h.close();
  });

  it("answers a health Check NOT_SERVING while a dependency probe fails, SERVING once it passes again", async () => {
    const Health = grpc.makeGenericClientConstructor(healthService as grpc.ServiceDefinition, "Health");
    const h = new Health(address, grpc.credentials.createInsecure()) as unknown as {
      check(req: { service: string }, cb: (err: Error | null, res: { status: string }) => void): void;
      close(): void;
    };
    const check = (service: string) => new Promise<string>((resolve, reject) => h.check({ service }, (err, r) => (err ? reject(err) : resolve(r.status))));
    let databaseUp = true;
    server.addDependencyCheck("database", async () => {
      if (!databaseUp) throw new Error("connection refused");
    });
    expect(await check("")).toBe("SERVING");
    databaseUp = false;
    expect(await check("")).toBe("NOT_SERVING");
    expect(await check("quarry.ci.v1.CiService")).toBe("NOT_SERVING");
    databaseUp = true;
    expect(await check("")).toBe("SERVING");
    h.close();
  });
});
