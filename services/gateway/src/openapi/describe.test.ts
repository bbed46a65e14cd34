import { Router } from "express";
import { describe, expect, it } from "vitest";
import type { GatewayDeps } from "../deps.ts";
import { scope } from "../http/auth.ts";
import { jobTokenAccess } from "../http/job-token.ts";
import { declareParams, p, pageShape, params } from "../http/params.ts";
import { describeRoutes } from "./describe.ts";

/** A router like the gateway's: routes that take parameters, use deps first, or answer at once. */
function sample(deps: GatewayDeps): Router {
  const r = Router();
  // Read while the router is built, as route factories do.
  const { repo } = deps;
  r.get("/things/:id/tags/*tag_name", scope("read_repository"), jobTokenAccess, async (req, res) => {
    const q = params(req, { ...pageShape, order_by: p.enum(["name", "updated"]).optional() });
    res.json({ q, tag: req.params.tag_name });
  });
  r.post("/things", scope(), (req, res) => {
    const q = params(req, { name: p.string() });
    res.status(201).json(q);
  });
  r.get("/things/:id", scope(), async (req, res) => {
    const found = await (repo as unknown as { FindThing(id: string): Promise<unknown> }).FindThing(String(req.params.id));
    res.json({ found, ...params(req, { with_stats: p.bool().optional() }) });
  });
  // Two shapes (a helper's and the handler's), and a required parameter the made-up request lacks.
  r.put("/things/:id", scope(), (req, res) => {
    const { id } = params(req, { id: p.id("Thing"), name: p.string().optional() });
    const q = params(req, { name: p.int(), description: p.string() });
    res.json({ id, ...q });
  });
  // Asks a service first, but declares its shape up front.
  const listShape = { ...pageShape, search: p.string().optional() };
  r.get("/things", scope(), declareParams(listShape), async (req, res) => {
    const all = await (repo as unknown as { ListThings(): Promise<unknown[]> }).ListThings();
    res.json({ all, ...params(req, listShape) });
  });
  r.get("/plain", (_req, res) => {
    res.json({ ok: true });
  });
  return r;
}

describe("describeRoutes", () => {
  it("captures the shape each route hands params(), without calling anything", async () => {
    const routes = await describeRoutes(sample);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual([
      "get /things/:id/tags/*tag_name",
      "post /things",
      "get /things/:id",
      "put /things/:id",
      "get /things",
      "get /plain",
    ]);
    const [tags, create, one, update, declared, plain] = routes;
    expect(Object.keys(tags!.shape!)).toEqual(["page", "per_page", "order_by"]);
    expect(tags).toMatchObject({ scopeNeed: "read_repository", acceptsJobToken: true, router: 0, stoppedBy: "res.json" });
    expect(Object.keys(create!.shape!)).toEqual(["name"]);
    expect(create).toMatchObject({ scopeNeed: "by method", acceptsJobToken: false, stoppedBy: '{"error":"name is missing"}' });
    // Stopped at its first use of a service: nothing was asked, and its parameters are unknown.
    expect(one).toMatchObject({ shape: undefined, stoppedBy: "deps" });
    // Both shapes, the first one's schema for a name in both.
    expect(Object.keys(update!.shape!)).toEqual(["id", "name", "description"]);
    expect(update!.shape!.name!.safeParse(undefined).success).toBe(true);
    expect(declared).toMatchObject({ stoppedBy: "deps" });
    expect(Object.keys(declared!.shape!)).toEqual(["page", "per_page", "search"]);
    // Answers without params(): it takes none.
    expect(plain).toMatchObject({ shape: undefined, stoppedBy: "res.json", scopeNeed: undefined });
  });
});
