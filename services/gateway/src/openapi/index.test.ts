import { Router } from "express";
import { describe, expect, it } from "vitest";
import { params, p } from "../http/params.ts";
import { cachedOpenApiJson } from "./index.ts";

const info = () => ({ version: "18.5.0", revision: "test", externalUrl: "http://gitlab.test" });

describe("cachedOpenApiJson", () => {
  it("describes the API once, however many ask at the same time", async () => {
    let builds = 0;
    const json = cachedOpenApiJson(() => {
      builds++;
      const r = Router();
      r.get("/things", (req) => params(req, { search: p.string().optional() }));
      return r;
    }, info);
    const [a, b] = await Promise.all([json(), json()]);
    const c = await json();
    expect(builds).toBe(1);
    expect(a).toBe(b);
    expect(c).toBe(a);
    const doc = JSON.parse(a.toString("utf8"));
    expect(doc.info.version).toBe("18.5.0");
    expect(doc.servers).toEqual([{ url: "http://gitlab.test/api/v4" }]);
    expect(doc.paths["/things"].get.parameters).toEqual([{ name: "search", in: "query", required: false, schema: { type: "string" } }]);
  });

  it("tries again after a failure", async () => {
    let builds = 0;
    const json = cachedOpenApiJson(() => {
      if (++builds === 1) throw new Error("first build fails");
      return Router();
    }, info);
    await expect(json()).rejects.toThrow("first build fails");
    expect(JSON.parse((await json()).toString("utf8")).paths).toEqual({});
    expect(builds).toBe(2);
  });
});
