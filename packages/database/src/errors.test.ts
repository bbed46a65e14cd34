import { expect, it } from "vitest";
import { isUniqueViolation } from "./errors.ts";

it("recognises Prisma's unique-constraint code and nothing else", () => {
  expect(isUniqueViolation(Object.assign(new Error("dup"), { code: "P2002" }))).toBe(true);
  expect(isUniqueViolation(Object.assign(new Error("fk"), { code: "P2003" }))).toBe(false);
  expect(isUniqueViolation(new Error("plain"))).toBe(false);
  expect(isUniqueViolation(null)).toBe(false);
});
