export * from "./cache.ts";
export * from "./settings.ts";
export * from "./changes.ts";
