import { validate, compileErrors } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningGateway } from "../server.ts";
import { startGatewayWithoutServices } from "../test-gateway.ts";

// The document needs no service: the gateway's services are unreachable here.
let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startGatewayWithoutServices();
});
afterAll(() => gateway.stop());

type Doc = {
  openapi: string;
  info: { version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }> };
};
type Operation = {
  operationId: string;
  tags: string[];
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown>; required?: string[] } }> };
  responses: Record<string, unknown>;
  security?: unknown[];
};

describe("GET /api/v4/openapi.json", () => {
  let doc: Doc;

  it("is an OpenAPI 3.1 document a validator accepts, served as application/json", async () => {
    const res = await fetch(`${gateway.url}/api/v4/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    doc = (await res.json()) as Doc;
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("18.5.0");
    expect(doc.servers).toEqual([{ url: `${gateway.url}/api/v4` }]);
    // validate() dereferences in place: give it a copy.
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? "" : compileErrors(result)).toBe("");
  });

  it("documents GET /projects/{id}/repository/tags with its query parameters", () => {
    const op = doc.paths["/projects/{id}/repository/tags"]!.get!;
    const param = (name: string) => op.parameters!.find((p) => p.name === name);
    expect(param("id")).toMatchObject({ in: "path", required: true });
    expect(param("order_by")).toEqual({ name: "order_by", in: "query", required: false, schema: { type: "string", enum: ["name", "updated", "version"] } });
    expect(param("sort")?.schema).toEqual({ type: "string", enum: ["asc", "desc"] });
    expect(param("page")).toMatchObject({ in: "query", required: false });
    expect(op.tags).toEqual(["tags"]);
    expect(Object.keys(op.responses)).toEqual(["200", "400", "401", "403", "404"]);
  });

  it("turns express wildcards into path parameters", () => {
    const op = doc.paths["/projects/{id}/repository/tags/{tag_name}"]!.get!;
    expect(op.parameters!.filter((p) => p.in === "path").map((p) => p.name)).toEqual(["id", "tag_name"]);
    expect(doc.paths["/projects/{id}/repository/files/{file_path}/raw"]?.get).toBeDefined();
    expect(Object.keys(doc.paths).filter((p) => /[:*]/.test(p))).toEqual([]);
  });

  it("documents POST /projects with its body, name among the properties", () => {
    const op = doc.paths["/projects"]!.post!;
    const body = op.requestBody!.content["application/json"]!.schema;
    expect(body.properties.name).toEqual({ type: "string" });
    expect(body.properties.visibility).toEqual({ type: "string", enum: ["private", "internal", "public"] });
    expect(op.requestBody!.content["application/x-www-form-urlencoded"]).toBeDefined();
    expect(Object.keys(op.responses)[0]).toBe("201");
    expect(doc.paths["/projects/{id}"]!.delete!.responses["204"]).toBeDefined();
  });

  it("documents the parameters of routes that authorize first (declareParams)", () => {
    const op = doc.paths["/projects/{id}/repository/commits"]!.get!;
    expect(op.parameters!.map((p) => p.name)).toEqual(expect.arrayContaining(["id", "ref_name", "since", "with_stats", "page"]));
    expect(op["x-quarry-parameters-documented" as keyof Operation]).toBeUndefined();
    // One that uses a service before anything else, and says so.
    expect(doc.paths["/user"]!.get!["x-quarry-parameters-documented" as keyof Operation]).toBe(false);
  });

  it("marks parameters required as the gateway does", () => {
    const body = doc.paths["/projects/{id}/repository/tags"]!.post!.requestBody!.content["application/json"]!.schema;
    expect(body.required).toEqual(["tag_name", "ref"]);
  });

  it("declares the three ways to authenticate and GitLab's error bodies", () => {
    expect(doc.components.securitySchemes).toMatchObject({
      PrivateToken: { type: "apiKey", in: "header", name: "PRIVATE-TOKEN" },
      Bearer: { type: "http", scheme: "bearer" },
      JobToken: { type: "apiKey", in: "header", name: "JOB-TOKEN" },
    });
    const components = doc.components as unknown as { schemas: Record<string, { required: string[] }> };
    expect(components.schemas.Message!.required).toEqual(["message"]);
    expect(components.schemas.Error!.required).toEqual(["error"]);
    // Runners' job routes take the job token; artifacts downloads take it besides users' tokens.
    expect(doc.paths["/jobs/{id}/artifacts"]!.get!.security).toEqual([{ JobToken: [] }, {}]);
    expect(doc.paths["/projects/{id}/jobs/{job_id}/artifacts"]!.get!.security).toContainEqual({ JobToken: [] });
  });

  it("lists every routed method and path, itself included", () => {
    const operations = Object.values(doc.paths).flatMap((ops) => Object.keys(ops));
    expect(operations.length).toBeGreaterThan(400);
    expect(doc.paths["/openapi.json"]!.get).toBeDefined();
    expect(new Set(Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId))).size).toBe(operations.length);
  });

  it("is generated once and served as it was", async () => {
    const again = await fetch(`${gateway.url}/api/v4/openapi.json`);
    expect(again.headers.get("content-type")).toBe("application/json");
    expect(await again.json()).toEqual(doc);
  });
});
