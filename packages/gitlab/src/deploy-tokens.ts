/** DeployToken::AVAILABLE_SCOPES, in GitLab's order (the order `scopes` is answered in). */
export const DEPLOY_TOKEN_SCOPES = [
  "read_repository",
  "read_registry",
  "write_registry",
  "read_package_registry",
  "write_package_registry",
  "read_virtual_registry",
  "write_virtual_registry",
] as const;

export type DeployTokenScope = (typeof DEPLOY_TOKEN_SCOPES)[number];
