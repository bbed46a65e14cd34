import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildRenderer, deployDir, renderObjects, renderRaw } from "./render.ts";

const fixture = join(deployDir, "test", "fixtures", "funcs");

describe("the chart renderer (helm template's engine)", () => {
  let renderer: string;
  beforeAll(() => {
    renderer = buildRenderer();
  }, 120_000);

  it("implements include, tpl, toYaml, toJson, fromYaml, required and the built-in objects as helm does", () => {
    const [out, second, ...rest] = renderObjects(renderer, fixture, ["--name", "rel", "--namespace", "ns"]) as unknown as Record<string, unknown>[];
    expect(rest).toEqual([]);
    expect(out).toEqual({
      name: "funcs-rel",
      upper: "FUNCS-REL",
      tpl: "hello from tpl",
      count: 3,
      // helm reads values through JSON: numbers are float64.
      countKind: "float64",
      nested: { drop: "dropped", keep: "kept" },
      list: ["a", "b"],
      fromYaml: 1,
      fromYamlError: true,
      required: "hello",
      missing: "",
      release: "rel/ns/Helm/true",
      chart: "funcs/1.2.3/9.9",
      kube: "v1.30.0/true",
      template: "funcs/templates/out.yaml",
      lookup: 0,
    });
    expect(second).toEqual({ second: "hello" });
  });

  it("prints each document under its source, as helm template does", () => {
    const text = renderRaw(renderer, fixture);
    expect(text.startsWith("---\n# Source: funcs/templates/out.yaml\n")).toBe(true);
    expect(text.match(/# Source: funcs\/templates\/out.yaml/g)).toHaveLength(2);
    // Partials and empty documents print nothing.
    expect(text).not.toContain("_helpers.tpl");
    expect(text).not.toContain("required.yaml");
  });

  it("merges -f files over values.yaml (null deletes a key), then --set", () => {
    const [out] = renderObjects(renderer, fixture, [
      "-f",
      join(deployDir, "test", "fixtures", "override.yaml"),
      "--set",
      "count=7,template=set",
    ]) as unknown as Record<string, unknown>[];
    expect(out).toMatchObject({ tpl: "set", count: 7, required: "bonjour", nested: { added: "new", keep: "kept" } });
  });

  it("refuses to run without Go, naming the Debian packages to install (never a skip)", () => {
    expect(() => buildRenderer({ ...process.env, PATH: "/nonexistent" })).toThrow(/needs Go: apt-get install -y golang-go golang-github-masterminds-sprig-dev/);
  });

  it("fails with required's message", () => {
    expect(() => renderRaw(renderer, fixture, ["--set", "fail.other=1"])).toThrow(/fail.message must be set/);
  });
});
