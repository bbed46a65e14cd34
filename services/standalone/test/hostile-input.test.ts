// Malformed and oversized input at the gateway's edge: each answers the 4xx GitLab answers, with
// GitLab's body, before any service (or PostgreSQL) sees it.
import http from "node:http";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUserWithToken, ROOT_TOKEN, startTestStack, type TestStack } from "./helpers.ts";

let s: TestStack;
let user: { id: number; token: string };
let projectId: number;

beforeAll(async () => {
  s = await startTestStack();
  user = await createUserWithToken(s);
  const res = await s.api("/projects", { method: "POST", token: user.token, json: { name: "hostile", initialize_with_readme: true } });
  projectId = ((await res.json()) as { id: number }).id;
});

afterAll(async () => {
  await s?.destroy();
});

/** A request sent as it is (fetch normalises URLs and refuses bodies on GET). */
function raw(method: string, path: string, headers: Record<string, string>, body?: Buffer | string) {
  const url = new URL(s.url);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const length = body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) };
    const req = http.request({ host: url.hostname, port: url.port, method, path: `/api/v4${path}`, headers: { ...headers, ...length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const asRoot = { "private-token": ROOT_TOKEN };

/** GitLab's Gitlab::Middleware::HandleMalformedStrings answer. */
function expectBadRequest(res: { status: number; headers: http.IncomingHttpHeaders; body: string }) {
  expect(res.status).toBe(400);
  expect(res.headers["content-type"]).toMatch(/^text\/plain/);
  expect(res.body).toBe("Bad Request");
}

describe("malformed strings (GitLab's HandleMalformedStrings)", () => {
  it("answers a malformed %-escape in the path with 400, anonymous callers too", async () => {
    expectBadRequest(await raw("GET", "/projects/%E0%A4%A", {}));
    expectBadRequest(await raw("GET", "/projects/%E0%A4%A", asRoot));
    expectBadRequest(await raw("GET", "/projects/%C0%AF/repository/tree", asRoot));
  });

  it("answers NUL bytes in the path, the query string and the body with 400 before PostgreSQL sees them", async () => {
    expectBadRequest(await raw("GET", "/groups/%00/members", {}));
    expectBadRequest(await raw("GET", "/groups/%00/members", asRoot));
    expectBadRequest(await raw("GET", "/projects?search=a%00b", asRoot));
    expectBadRequest(
      await raw(
        "POST",
        `/projects/${projectId}/repository/branches`,
        { ...asRoot, "content-type": "application/json" },
        JSON.stringify({ branch: "a\u0000b", ref: "main" }),
      ),
    );
    expectBadRequest(await raw("POST", "/groups", { ...asRoot, "content-type": "application/x-www-form-urlencoded" }, "name=a%00&path=b"));
  });

  it("answers Authorization credentials with a NUL or bytes that are not UTF-8 with 400", async () => {
    const basic = (bytes: Buffer) => ({ authorization: `Basic ${bytes.toString("base64")}` });
    expectBadRequest(await raw("GET", "/projects", basic(Buffer.from("root\u0000:secret"))));
    expectBadRequest(await raw("GET", "/projects", basic(Buffer.from([0x72, 0x3a, 0xc0, 0xaf]))));
    expect((await raw("GET", "/projects", basic(Buffer.from("root:wrong")))).status).toBe(200);
  });

  it("answers parameters nested deeper than 32 with 400, in a form body or the query string", async () => {
    expectBadRequest(await raw("POST", "/projects", { ...asRoot, "content-type": "application/x-www-form-urlencoded" }, `name${"[a]".repeat(40)}=x`));
    expectBadRequest(await raw("GET", `/projects?search${"[a]".repeat(40)}=x`, asRoot));
    expectBadRequest(await raw("GET", `/projects?search${"%5Ba%5D".repeat(40)}=x`, asRoot));
    expect((await raw("GET", `/projects?filter${"[a]".repeat(3)}=x`, asRoot)).status).toBe(200);
  });
});

describe("bodies that cannot be read", () => {
  const json = { ...asRoot, "content-type": "application/json" };

  it("answers more than 10,000 form parameters with 413", async () => {
    const body = Array.from({ length: 10_001 }, (_, i) => `a${i}=1`).join("&");
    const res = await raw("POST", "/projects", { ...asRoot, "content-type": "application/x-www-form-urlencoded" }, body);
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({ message: "413 Request Entity Too Large" });
  });

  it("answers corrupt gzip, deflate and brotli bodies with 400", async () => {
    for (const encoding of ["gzip", "deflate", "br"]) {
      const res = await raw("POST", "/projects", { ...json, "content-encoding": encoding }, Buffer.from("not compressed at all"));
      expect([encoding, res.status, JSON.parse(res.body)]).toEqual([encoding, 400, { message: "400 Bad request" }]);
    }
    const truncated = await raw(
      "POST",
      "/projects",
      { ...json, "content-encoding": "br" },
      brotliCompressSync(JSON.stringify({ name: "x".repeat(500) })).subarray(0, 10),
    );
    expect(truncated.status).toBe(400);
  });

  it("still reads a well-formed compressed body", async () => {
    const res = await raw("POST", "/projects", { ...json, "content-encoding": "gzip" }, gzipSync(JSON.stringify({ name: "compressed" })));
    expect(res.status).toBe(201);
  });

  it("answers an unsupported content encoding with 415", async () => {
    const res = await raw("POST", "/projects", { ...json, "content-encoding": "compress" }, "{}");
    expect(res.status).toBe(415);
    expect(JSON.parse(res.body)).toEqual({ message: "415 Unsupported Media Type" });
  });

  it("answers multipart bodies without a boundary or cut short with 400", async () => {
    const noBoundary = await raw(
      "POST",
      "/projects",
      { ...asRoot, "content-type": "multipart/form-data" },
      '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--x--\r\n',
    );
    expect([noBoundary.status, JSON.parse(noBoundary.body)]).toEqual([400, { message: "400 Bad request" }]);
    const truncated = await raw(
      "POST",
      "/projects",
      { ...asRoot, "content-type": "multipart/form-data; boundary=x" },
      '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nabc',
    );
    expect([truncated.status, JSON.parse(truncated.body)]).toEqual([400, { message: "400 Bad request" }]);
  });

  it("answers an artifact upload whose multipart body cannot be read with 400", async () => {
    const headers = { "job-token": "not-a-job-token", "content-type": "multipart/form-data; boundary=x" };
    for (const body of ["garbage", '--x\r\nContent-Disposition: form-data; name="artifact_type"\r\n\r\narch']) {
      const res = await raw("POST", "/jobs/1/artifacts", headers, body);
      expect([res.status, JSON.parse(res.body)]).toEqual([400, { message: "400 Bad request" }]);
    }
  });

  it("answers artifact uploads cut short inside a file part (skipped or refused before it is read) without an unhandled stream error", async () => {
    const headers = { "job-token": "not-a-job-token", "content-type": "multipart/form-data; boundary=x" };
    for (const field of ["other", "file"]) {
      const body = `--x\r\nContent-Disposition: form-data; name="${field}"; filename="a.zip"\r\nContent-Type: application/zip\r\n\r\nPK\u0003\u0004cut`;
      const res = await raw("POST", "/jobs/1/artifacts", headers, body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    // busboy destroys the unread file stream with "Unexpected end of form"; vitest fails the run on an unhandled error.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await raw("GET", "/version", asRoot, "")).status).toBe(200);
  });

  it("answers JSON nested deeper than GitLab parses as invalid JSON", async () => {
    const res = await raw("POST", "/projects", json, `{"name":${"[".repeat(5000)}${"]".repeat(5000)}}`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({ message: "400 Bad request - the request body is not valid JSON" });
  });
});

describe("ids beyond PostgreSQL's integer", () => {
  it("are 404 for the record they name, anonymous callers too, without reaching a service", async () => {
    const cases: [string, string | null, string][] = [
      ["/projects/2147483648", null, "404 Project Not Found"],
      ["/projects/2147483648", s.rootToken, "404 Project Not Found"],
      ["/projects/99999999999999999999/repository/branches", s.rootToken, "404 Project Not Found"],
      ["/groups/2147483648", s.rootToken, "404 Group Not Found"],
      ["/users/2147483648", s.rootToken, "404 User Not Found"],
      [`/projects/${projectId}/members/2147483648`, s.rootToken, "404 Member Not Found"],
      [`/projects/${projectId}/jobs/9223372036854775808`, s.rootToken, "404 Not found"],
      [`/projects/${projectId}/jobs/2147483648/artifacts`, s.rootToken, "404 Not found"],
      [`/projects/${projectId}/hooks/2147483648`, s.rootToken, "404 Hook Not Found"],
      [`/projects/${projectId}/repository/compare?from=main&to=main&from_project_id=2147483648`, s.rootToken, "404 Project Not Found"],
    ];
    for (const [path, token, message] of cases) {
      const res = await s.api(path, { token });
      expect([path, res.status, await res.json()]).toEqual([path, 404, { message }]);
    }
    const hook = await s.api(`/projects/${projectId}/hooks`, { method: "POST", json: { url: "http://127.0.0.1:9/h" } });
    const hookId = ((await hook.json()) as { id: number }).id;
    const resend = await s.api(`/projects/${projectId}/hooks/${hookId}/events/2147483648/resend`, { method: "POST" });
    expect([resend.status, await resend.json()]).toEqual([404, { message: "404 Not found" }]);
  });

  it("never wraps a page beyond 2^31 round to page 1: it is past the last page", async () => {
    const res = await s.api("/projects?page=2147483648&per_page=2147483648");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    // The page whose offset still fits the services' 32-bit counts: past the last page of any list.
    expect(res.headers.get("x-page")).toBe("21474836");
    expect(res.headers.get("x-per-page")).toBe("100");
    expect(res.headers.get("x-next-page")).toBe("");
    // git counts in 32 bits too: its skip and count must not wrap either.
    for (const path of ["/repository/commits", "/repository/commits/main/refs", "/repository/branches"]) {
      const page = await s.api(`/projects/${projectId}${path}?page=2147483648`, { token: user.token });
      expect([path, page.status, await page.json()]).toEqual([path, 200, []]);
    }
  });
});

describe("GitLab's size limits at the edge", () => {
  const json = (token: string) => ({ "private-token": token, "content-type": "application/json" });

  it("refuses a 60-100 KB ref at once instead of holding repo-service", async () => {
    const tag = await raw("POST", `/projects/${projectId}/repository/tags`, json(user.token), JSON.stringify({ tag_name: "t1", ref: "a".repeat(80_000) }));
    expect([tag.status, JSON.parse(tag.body)]).toEqual([400, { error: "ref should be a valid reference path" }]);
    const branch = await raw(
      "POST",
      `/projects/${projectId}/repository/branches`,
      json(user.token),
      JSON.stringify({ branch: "b".repeat(100_000), ref: "main" }),
    );
    expect([branch.status, JSON.parse(branch.body)]).toEqual([400, { error: "branch should be a valid reference path" }]);
    // A ref of exactly 1024 characters is well-formed; it just does not exist.
    const longest = await raw("POST", `/projects/${projectId}/repository/branches`, json(user.token), JSON.stringify({ branch: "ok", ref: "c".repeat(1024) }));
    expect(longest.status).toBe(400);
    expect(longest.body).not.toContain("should be a valid reference path");
    expect((await s.api(`/projects/${projectId}`)).status).toBe(200);
  });

  it("refuses names, descriptions and file paths beyond GitLab's limits", async () => {
    const name = await raw("POST", "/projects", json(user.token), JSON.stringify({ name: "n".repeat(256) }));
    expect([name.status, JSON.parse(name.body)]).toEqual([400, { message: { name: ["is too long (maximum is 255 characters)"] } }]);
    const description = await raw("PUT", `/projects/${projectId}`, json(user.token), JSON.stringify({ description: "d".repeat(2001) }));
    expect([description.status, JSON.parse(description.body)]).toEqual([400, { message: { description: ["is too long (maximum is 2000 characters)"] } }]);
    const file = await raw(
      "POST",
      `/projects/${projectId}/repository/files/${"p".repeat(4097)}`,
      json(user.token),
      JSON.stringify({ branch: "main", content: "x", commit_message: "m" }),
    );
    expect([file.status, JSON.parse(file.body)]).toEqual([400, { error: "file_path should be a valid file path" }]);
  });

  it("refuses a 50 KB search term, in the query string or the body", async () => {
    const query = await s.api(`/projects?search=${"s".repeat(5000)}`);
    expect([query.status, await query.json()]).toEqual([400, { error: "search must be less than 4096 characters" }]);
    const body = await raw("GET", "/projects", json(s.rootToken), JSON.stringify({ search: "s".repeat(50_000) }));
    expect([body.status, JSON.parse(body.body)]).toEqual([400, { error: "search must be less than 4096 characters" }]);
  });

  it("leaves out a Link header that would outgrow what clients read, keeping the X-* headers", async () => {
    const res = await s.api(`/projects?order_by=id&filter=${"f".repeat(10_000)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("link")).toBeNull();
    expect(res.headers.get("x-page")).toBe("1");
    expect((await s.api("/projects?order_by=id")).headers.get("link")).toContain('rel="first"');
  });
});
