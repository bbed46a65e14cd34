import { describe, expect, it } from "vitest";
import { isMask, maskedUrl, splitCredentials, withCredentials } from "./url-credentials.ts";

describe("hook URL credentials", () => {
  it("splits user and password off, decoded, up to the last @ before the path", () => {
    expect(splitCredentials("https://alice:s%40cret@hooks.example.com/x@y?z=@")).toEqual({
      url: "https://hooks.example.com/x@y?z=@",
      credentials: { user: "alice", password: "s@cret" },
    });
    expect(splitCredentials("http://p@ss:w@rd@host:8080/")).toEqual({ url: "http://host:8080/", credentials: { user: "p@ss", password: "w@rd" } });
    expect(splitCredentials("http://token@host/")).toEqual({ url: "http://host/", credentials: { user: "token", password: "" } });
  });

  it("leaves URLs without credentials, and placeholder credentials, as they are", () => {
    expect(splitCredentials("https://host/path")).toEqual({ url: "https://host/path", credentials: null });
    expect(splitCredentials("https://{user}:{password}@host/")).toEqual({ url: "https://{user}:{password}@host/", credentials: null });
  });

  it("masks, recognises the mask, and puts credentials back for delivery", () => {
    const creds = { user: "alice", password: "s@cret/1" };
    expect(maskedUrl("https://host/p", creds)).toBe("https://*****:*****@host/p");
    expect(maskedUrl("https://host/p", null)).toBe("https://host/p");
    // A row saved before credentials were split off still holds them in its URL.
    expect(maskedUrl("https://alice:secret@host/p", null)).toBe("https://*****:*****@host/p");
    expect(isMask(splitCredentials(maskedUrl("https://host/p", creds)).credentials!)).toBe(true);
    expect(isMask(creds)).toBe(false);
    const url = new URL(withCredentials("https://host/p", creds));
    expect([decodeURIComponent(url.username), decodeURIComponent(url.password), url.host, url.pathname]).toEqual(["alice", "s@cret/1", "host", "/p"]);
  });
});
