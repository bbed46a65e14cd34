import { expect, it } from "vitest";
import { pagination } from "./pagination.ts";

it("clamps page and per_page as GitLab does", () => {
  expect(pagination(0, 0)).toEqual({ offset: 0, limit: 20 });
  expect(pagination(3, 10)).toEqual({ offset: 20, limit: 10 });
  expect(pagination(2, 500)).toEqual({ offset: 100, limit: 100 });
  expect(pagination(-1, -5)).toEqual({ offset: 0, limit: 20 });
});
