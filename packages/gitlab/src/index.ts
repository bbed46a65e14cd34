export * from "./access.ts";
export * from "./visibility.ts";
export * from "./ci-status.ts";
export * from "./refs.ts";
export * from "./ids.ts";
export * from "./messages.ts";
export * from "./colors.ts";
export * from "./push-context.ts";
