import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, send, serveGitHttp } from "../../test/git-http-support.ts";
import { gitIn, makeCommit, repositoryWith, setUp, type TestContext } from "../../test/support.ts";

let t: TestContext;
let served: Awaited<ReturnType<typeof serveGitHttp>>;
beforeAll(async () => {
  t = await setUp("upload_pack");
  served = await serveGitHttp(t);
});
afterAll(async () => {
  await served.close();
  await t.close();
});

describe("UploadPack", () => {
  it("answers a want/done negotiation with a pack", async () => {
    const { dir, diskPath } = await repositoryWith(t);
    const sha = makeCommit(dir, { message: "First\n" });
    gitIn(dir, "update-ref", "refs/heads/main", sha);
    const call = served.client.UploadPack();
    const out = collect(call);
    send(call, { diskPath, gitProtocol: "" }, Buffer.from(`0032want ${sha}\n00000009done\n`));
    const { data, error } = await out;
    expect(error).toBeUndefined();
    expect(data.subarray(0, 12).toString("latin1")).toBe("0008NAK\nPACK");
  });

  it("answers NOT_FOUND for a missing repository", async () => {
    const call = served.client.UploadPack();
    const out = collect(call);
    send(call, { diskPath: "@hashed/00/00/none.git", gitProtocol: "" }, Buffer.from("0000"));
    expect((await out).error?.code).toBe(status.NOT_FOUND);
  });
});
