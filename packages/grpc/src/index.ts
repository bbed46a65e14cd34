export * from "./errors.ts";
export * from "./http-status.ts";
export * from "./server.ts";
export * from "./client.ts";
export * from "./metrics.ts";
export * from "./request-context.ts";
export { status, Metadata } from "@grpc/grpc-js";
export * from "./lifecycle.ts";
