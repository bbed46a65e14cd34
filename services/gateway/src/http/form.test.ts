import { describe, expect, it } from "vitest";
import { parseHashArray } from "./form.ts";

describe("parseHashArray", () => {
  it("starts a new element at each repeated key, as Rack does", () => {
    const body =
      "branch=main&actions[][action]=create&actions[][file_path]=a&actions[][action]=update&actions[][file_path]=b&actions[][content]=y&actions[][action]=delete&actions[][file_path]=c";
    expect(parseHashArray(body, "actions")).toEqual([
      { action: "create", file_path: "a" },
      { action: "update", file_path: "b", content: "y" },
      { action: "delete", file_path: "c" },
    ]);
  });

  it("decodes values (+ as space, percent escapes) and ignores other names and shapes", () => {
    expect(parseHashArray("actions%5B%5D%5Bcontent%5D=a+b%26c&actions[0][action]=x&other[][k]=v&actions[][a][b]=z", "actions")).toEqual([{ content: "a b&c" }]);
    expect(parseHashArray("branch=main", "actions")).toBeNull();
  });
});
