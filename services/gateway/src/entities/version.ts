/** GET /version */
export function versionInfo(version: string, revision: string) {
  return { version, revision };
}

/** GET /metadata */
export function metadata(version: string, revision: string) {
  return {
    version,
    revision,
    kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
    enterprise: false,
  };
}
