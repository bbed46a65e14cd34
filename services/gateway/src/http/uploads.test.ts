import type { AddressInfo } from "node:net";
import { silentLogger } from "@quarry/logger";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorHandler } from "./errors.ts";
import { acceptFiles, multipartParser, uploadedFile } from "./uploads.ts";

let base = "";
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.use(multipartParser({ fieldSize: 50_000, router: () => app.router }));
  const echo: express.RequestHandler = (req, res) => {
    const f = uploadedFile(req, "doc");
    res.json({ body: req.body, file: f ? { filename: f.filename, mimeType: f.mimeType, data: f.data.toString("latin1"), truncated: f.truncated } : null });
  };
  app.post("/with-file", acceptFiles([{ name: "doc", maxBytes: 10 }]), echo);
  // A mounted router's routes declare theirs the same way; the first route for the method decides.
  const nested = express.Router();
  nested.put("/items/:id", acceptFiles([{ name: "doc", maxBytes: 4 }]), echo);
  nested.put("/items/:id", acceptFiles([{ name: "never", maxBytes: 4 }]), echo);
  nested.get("/items/:id", echo);
  app.use("/mounted", nested);
  app.post("/fields-only", echo);
  app.use(errorHandler(silentLogger()));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close?.());

const form = (doc?: string | Blob, filename = "é.txt") => {
  const f = new FormData();
  f.append("name", "x");
  f.append("tags[]", "a");
  f.append("tags[]", "b");
  if (doc !== undefined) f.append("doc", typeof doc === "string" ? new Blob([doc], { type: "text/plain" }) : doc, filename);
  return f;
};

describe("multipartParser", () => {
  it("gives a declared file part (UTF-8 name) with the fields parsed as before", async () => {
    const res = await fetch(`${base}/with-file`, { method: "POST", body: form("hello") });
    expect(await res.json()).toEqual({
      body: { name: "x", tags: ["a", "b"] },
      file: { filename: "é.txt", mimeType: "text/plain", data: "hello", truncated: false },
    });
  });

  it("keeps no more than maxBytes of a longer part, reads the rest of the body, and says so", async () => {
    const res = await fetch(`${base}/with-file`, { method: "POST", body: form("x".repeat(40_000)) });
    const json = (await res.json()) as { file: unknown; body: unknown };
    expect(json.file).toMatchObject({ data: "x".repeat(10), truncated: true });
    expect(json.body).toEqual({ name: "x", tags: ["a", "b"] });
    const exact = (await (await fetch(`${base}/with-file`, { method: "POST", body: form("y".repeat(10)) })).json()) as { file: unknown };
    expect(exact.file).toMatchObject({ data: "y".repeat(10), truncated: false });
    // Past the body limit the part is not drained: 413, as for any body that large.
    const huge = await fetch(`${base}/with-file`, { method: "POST", body: form("z".repeat(60_000)) });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({ message: "413 Request Entity Too Large" });
  });

  it("finds the declaration of a route in a mounted router, for its method only", async () => {
    const res = await fetch(`${base}/mounted/items/7`, { method: "PUT", body: form("hello") });
    expect(((await res.json()) as { file: unknown }).file).toMatchObject({ data: "hell", truncated: true });
    const f = form();
    f.append("never", new Blob(["z"]), "z.txt");
    expect((await fetch(`${base}/mounted/items/7`, { method: "PUT", body: f })).status).toBe(400);
    expect((await fetch(`${base}/mounted/other/7`, { method: "PUT", body: form("hello") })).status).toBe(400);
  });

  it("refuses file parts on other routes and in undeclared fields (400), as before", async () => {
    const other = await fetch(`${base}/fields-only`, { method: "POST", body: form("hello") });
    expect(other.status).toBe(400);
    expect(await other.json()).toEqual({ message: "400 Bad request" });
    const f = form();
    f.append("other", new Blob(["z"]), "z.txt");
    expect((await fetch(`${base}/with-file`, { method: "POST", body: f })).status).toBe(400);
    const fields = await fetch(`${base}/fields-only`, { method: "POST", body: form() });
    expect(await fields.json()).toEqual({ body: { name: "x", tags: ["a", "b"] }, file: null });
  });
});
