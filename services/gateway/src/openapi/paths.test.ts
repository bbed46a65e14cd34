import { describe, expect, it } from "vitest";
import { openApiPaths } from "./paths.ts";

describe("openApiPaths", () => {
  it("turns express parameters and wildcards into OpenAPI templates", () => {
    expect(openApiPaths("/projects/:id/repository/tags/*tag_name")).toEqual([
      {
        path: "/projects/{id}/repository/tags/{tag_name}",
        params: [
          { name: "id", wildcard: false },
          { name: "tag_name", wildcard: true },
        ],
      },
    ]);
    expect(openApiPaths("/projects")).toEqual([{ path: "/projects", params: [] }]);
  });

  it("gives a path without and one with each optional group", () => {
    expect(openApiPaths("/projects/:id/repository/archive{.:format}").map((p) => p.path)).toEqual([
      "/projects/{id}/repository/archive",
      "/projects/{id}/repository/archive.{format}",
    ]);
    expect(openApiPaths("/a{/:b{/:c}}").map((p) => p.path)).toEqual(["/a", "/a/{b}", "/a/{b}/{c}"]);
  });
});
