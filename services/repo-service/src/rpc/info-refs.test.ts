import { status } from "@quarry/grpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, serveGitHttp } from "../../test/git-http-support.ts";
import { gitIn, makeCommit, repositoryWith, setUp, type TestContext } from "../../test/support.ts";

let t: TestContext;
let served: Awaited<ReturnType<typeof serveGitHttp>>;
beforeAll(async () => {
  t = await setUp("info_refs");
  served = await serveGitHttp(t);
});
afterAll(async () => {
  await served.close();
  await t.close();
});

describe("InfoRefs", () => {
  it("streams git's advertisement for upload-pack (v0 and v2) and receive-pack", async () => {
    const { dir, diskPath } = await repositoryWith(t);
    const sha = makeCommit(dir);
    gitIn(dir, "update-ref", "refs/heads/main", sha);
    const v0 = (await collect(served.client.InfoRefs({ diskPath, service: "git-upload-pack", gitProtocol: "" }))).data.toString();
    expect(v0).toMatch(new RegExp(`^[0-9a-f]{4}${sha} HEAD\\0.*allow-tip-sha1-in-want`));
    expect(v0).toContain(`${sha} refs/heads/main\n`);
    expect(v0.endsWith("0000")).toBe(true);
    const v2 = (await collect(served.client.InfoRefs({ diskPath, service: "git-upload-pack", gitProtocol: "version=2" }))).data.toString();
    expect(v2.startsWith("000eversion 2\n")).toBe(true);
    expect(v2).toContain("fetch=shallow wait-for-done filter");
    const receive = (await collect(served.client.InfoRefs({ diskPath, service: "git-receive-pack", gitProtocol: "" }))).data.toString();
    expect(receive).toMatch(/report-status/);
  });

  it("refuses other services and missing repositories", async () => {
    const { diskPath } = await repositoryWith(t);
    const bad = await collect(served.client.InfoRefs({ diskPath, service: "git-upload-archive", gitProtocol: "" }));
    expect(bad.error?.code).toBe(status.INVALID_ARGUMENT);
    const missing = await collect(served.client.InfoRefs({ diskPath: "@hashed/00/00/none.git", service: "git-upload-pack", gitProtocol: "" }));
    expect(missing.error?.code).toBe(status.NOT_FOUND);
  });
});
