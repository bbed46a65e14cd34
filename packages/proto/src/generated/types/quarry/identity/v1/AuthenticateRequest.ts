// Original file: /work/main/proto/quarry/identity/v1/identity.proto


/**
 * Resolves a token to a principal.
 */
export interface AuthenticateRequest {
  /**
   * The token in clear as the client sent it; only its SHA-256 digest is looked up.
   */
  'token'?: (string);
}

/**
 * Resolves a token to a principal.
 */
export interface AuthenticateRequest__Output {
  /**
   * The token in clear as the client sent it; only its SHA-256 digest is looked up.
   */
  'token': (string);
}
