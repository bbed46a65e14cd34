export * from "./errors.ts";
export * from "./http-status.ts";
export * from "./server.ts";
export * from "./client.ts";
export { status, Metadata } from "@grpc/grpc-js";
export * from "./lifecycle.ts";
