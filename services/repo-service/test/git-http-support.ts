// Serves GitHttpService over a real gRPC server for the streaming handler tests, with helpers
// to collect a call's output.
import type * as grpc from "@grpc/grpc-js";
import { createGrpcServer, createStreamingClient } from "@quarry/grpc";
import { repoV1 } from "@quarry/proto";
import type { GitHttpServiceClient } from "@quarry/proto/types/repo/v1/GitHttpService";
import { gitHttpHandlers } from "../src/server.ts";
import type { TestContext } from "./support.ts";

export async function serveGitHttp(t: TestContext): Promise<{ client: GitHttpServiceClient; close(): Promise<void> }> {
  const server = createGrpcServer(t.deps.log);
  server.addRawService("quarry.repo.v1.GitHttpService", repoV1.GitHttpService.service, gitHttpHandlers(t.deps));
  const address = await server.listen("127.0.0.1:0");
  const client = createStreamingClient(repoV1.GitHttpService, address);
  return {
    client,
    async close() {
      client.close();
      await server.stop(100);
    },
  };
}

/** All data of a response stream, or the error status it ended with. */
export function collect(
  call: grpc.ClientReadableStream<{ data: Buffer }> | grpc.ClientDuplexStream<unknown, { data: Buffer }>,
): Promise<{ data: Buffer; error?: grpc.ServiceError }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    call.on("data", (m: { data: Buffer }) => chunks.push(m.data));
    call.on("error", (error: grpc.ServiceError) => resolve({ data: Buffer.concat(chunks), error }));
    call.on("end", () => resolve({ data: Buffer.concat(chunks) }));
  });
}

/** Sends the first message and the body (in one data message), then half-closes. */
export function send<T>(call: grpc.ClientDuplexStream<T, unknown>, first: T, body: Buffer): void {
  call.write(first);
  if (body.length) call.write({ data: body } as T);
  call.end();
}
