import { badRequest, paramError } from "@quarry/grpc";

export const TOKEN_SCOPES = new Set([
  "api",
  "read_api",
  "read_user",
  "read_repository",
  "write_repository",
  "read_registry",
  "write_registry",
  "sudo",
  "admin_mode",
  "create_runner",
  "manage_runner",
  "k8s_proxy",
  "ai_features",
  "read_service_ping",
  "self_rotate",
]);

export function validateScopes(scopes: string[]): void {
  if (!scopes.length) throw paramError("scopes is missing");
  const bad = scopes.filter((s) => !TOKEN_SCOPES.has(s));
  if (bad.length) throw badRequest({ scopes: [`can only contain available scopes: ${[...TOKEN_SCOPES].join(", ")}`] });
}
