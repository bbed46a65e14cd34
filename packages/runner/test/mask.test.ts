import { describe, expect, it } from "vitest";
import { Masker } from "../src/mask.ts";

const through = (masker: Masker, chunks: string[]) => chunks.map((c) => masker.push(c)).join("") + masker.flush();

describe("Masker", () => {
  it("masks every occurrence, longest secret first", () => {
    const masker = new Masker(["secret", "secret-longer"]);
    expect(through(masker, ["a secret-longer and a secret."])).toBe("a [MASKED] and a [MASKED].");
  });

  it("masks a secret split over many writes", () => {
    const masker = new Masker(["p4ssw0rd!"]);
    expect(through(masker, [..."x p4ssw0rd! y"])).toBe("x [MASKED] y");
  });

  it("holds back only what could still become a secret", () => {
    const masker = new Masker(["abcdef"]);
    expect(masker.push("text abc")).toBe("text ");
    expect(masker.push("xyz")).toBe("abcxyz");
    expect(masker.push("ab")).toBe("");
    expect(masker.flush()).toBe("ab");
  });

  it("masks the URL-encoded form too", () => {
    const masker = new Masker(["a b/c"]);
    expect(through(masker, ["url?x=a%20b%2Fc"])).toBe("url?x=[MASKED]");
  });

  it("ignores empty values", () => {
    expect(through(new Masker([""]), ["unchanged"])).toBe("unchanged");
  });
});
